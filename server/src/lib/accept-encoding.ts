/** The encodings the server compresses in, best first. */
export type Encoding = 'br' | 'gzip';
const PREFERRED: readonly Encoding[] = ['br', 'gzip'];

/**
 * The best encoding an Accept-Encoding header takes, or null for the plain bytes. A `q=0` refuses
 * an encoding, `*` stands for those not named.
 */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)));
  }
  const weight = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  return PREFERRED.find((encoding) => weight(encoding) > 0) ?? null;
}
