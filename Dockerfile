# Kruh's container image. The build stage runs the README's production install (npm ci, npm run
# build, npm prune --omit=dev); the image keeps only what `npm run serve` reads, and runs as the
# unprivileged user `node`. server/tests/build/container-image.test.ts runs these steps in a folder.

# The full image carries the compilers the native packages (better-sqlite3, argon2) may need.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/check-node.cjs ./scripts/
RUN npm ci
COPY . .
RUN npm run build
RUN npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
ENV DATA_DIR=/data
ENV PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/dist ./dist
# The database (SQLite), media folder, mail outbox and generated secrets: keep it on a volume.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health/ready').then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/dist/server/src/server.js"]
