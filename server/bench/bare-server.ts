/**
 * The ceiling of the HTTP benchmark: a bare Fastify JSON route in a process like the real
 * server's (same Node, same tsx loader, one process), started by bench.ts on PORT.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log('listening');
