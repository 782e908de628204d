import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/compiled-build';

/** What an operator writes into the documented nginx file: where Kruh runs, where nginx listens, the certificate. */
export interface NginxSite {
  /** host:port of each Kruh process, one for each `server` line of the upstream. */
  upstreams: string[];
  ports: { https: number; http: number };
  cert: string;
  key: string;
}

/**
 * deploy/nginx/kruh.conf with the lines marked `# EDIT` written for `site`, as the README tells an
 * operator to; every other line stays as documented. A marked line this does not know how to write
 * fails, as does an unmarked line it would have to change.
 */
export function nginxConfig(text: string, site: NginxSite): string {
  const marked = (line: string) => /;\s*# EDIT\s*$/.test(line);
  const upstreams = [...site.upstreams];
  const unmarked = text.split('\n').filter((line) => !marked(line) && /^\s*(listen|ssl_certificate(_key)?)\s|^\s*server\s+[^\s{]/.test(line));
  if (unmarked.length > 0) throw new Error(`site-specific lines not marked "# EDIT": ${unmarked.join(' | ')}`);
  return text
    .split('\n')
    .map((line) => {
      if (!marked(line)) return line;
      const [, indent = '', directive = '', value = ''] = /^(\s*)(\S+)\s+([^;]*);/.exec(line) ?? [];
      const written = (next: string) => `${indent}${directive} ${next};`;
      if (directive === 'server') {
        const upstream = upstreams.shift();
        if (!upstream) throw new Error('more upstream servers in the file than Kruh processes');
        return written(upstream);
      }
      if (directive === 'listen') {
        const [port, ...options] = value.split(/\s+/);
        return written([`127.0.0.1:${port === '443' ? site.ports.https : site.ports.http}`, ...options].join(' '));
      }
      if (directive === 'server_name') return line;
      if (directive === 'ssl_certificate') return written(site.cert);
      if (directive === 'ssl_certificate_key') return written(site.key);
      throw new Error(`no way to write the marked line: ${line}`);
    })
    .join('\n');
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1000, mb: 1000 ** 2, gb: 1000 ** 3 };

function bytes(size: string): number {
  const [, amount = '', unit = ''] = /^(\d+)([a-z]*)$/i.exec(size.trim()) ?? [];
  const factor = SIZE_UNITS[unit.toLowerCase()];
  if (!amount || factor === undefined) throw new Error(`not a size: ${size}`);
  return Number(amount) * factor;
}

/** The largest request body each documented proxy lets through, in bytes. */
export function proxyBodyLimits(): Record<string, number> {
  const nginx = readFileSync(join(REPO, 'deploy/nginx/kruh.conf'), 'utf8');
  const caddy = readFileSync(join(REPO, 'deploy/Caddyfile'), 'utf8');
  return {
    nginx: bytes(/^\s*client_max_body_size\s+(\S+);/m.exec(nginx)?.[1] ?? '1m'),
    caddy: bytes(/^\s*max_size\s+(\S+)/m.exec(caddy)?.[1] ?? '0'),
  };
}
