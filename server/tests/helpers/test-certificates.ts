import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A certificate authority made for one test run, and a server certificate it signed for each of the
 * given names, so a server in the test speaks https that a peer checks as it checks any (the peer
 * trusts the authority through NODE_EXTRA_CA_CERTS, nothing else does). Made with the openssl
 * command: node:crypto makes keys but not certificates.
 */
export interface TestCertificates {
  /** The authority's certificate (PEM), to hand to NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Each name's key and certificate (PEM). */
  servers: Map<string, { key: string; cert: string }>;
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-noenc', '-days', '2'];

export function makeTestCertificates(dir: string, hostnames: string[]): TestCertificates {
  const caFile = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key');
  openssl(['req', '-x509', ...ecKey, '-keyout', caKey, '-out', caFile, '-subj', '/CN=Kruh test authority',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
  const servers = new Map<string, { key: string; cert: string }>();
  for (const hostname of hostnames) {
    const key = join(dir, `${hostname}.key`);
    const cert = join(dir, `${hostname}.pem`);
    openssl(['req', '-x509', ...ecKey, '-keyout', key, '-out', cert, '-subj', `/CN=${hostname}`, '-CA', caFile, '-CAkey', caKey,
      '-addext', `subjectAltName=DNS:${hostname}`, '-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'extendedKeyUsage=serverAuth']);
    servers.set(hostname, { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
  }
  return { caFile, servers };
}
