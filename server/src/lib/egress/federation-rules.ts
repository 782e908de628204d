import packageJson from '../../../../package.json' with { type: 'json' };
import type { EgressRules } from './egress.js';

/**
 * How the instance reaches other servers of the fediverse: the guard's rules for them and the name
 * it gives itself. Everything that reads from another server (documents, WebFinger, pictures,
 * deliveries) asks with these, whichever module it sits in.
 */

/** The guard's rules for remote servers, and how long one of their documents may take to read. */
export interface FederationRules extends EgressRules {
  /** One document's whole reading, every redirect included (FEDERATION_FETCH_TIMEOUT_MS). */
  documentTimeoutMs?: number;
}

/** Remote servers are reached over https at public addresses only, as every other outgoing request. */
export const FEDERATION_EGRESS: FederationRules = { allowLoopbackHttp: false };

/** What of the instance's settings says how it reaches remote servers and names itself to them. */
export interface FederationSettings {
  federationAllowHttp: boolean;
  federationFetchTimeoutMs: number;
  publicUrl: string;
}

/** The instance's rules for remote servers: plain http to this machine too when FEDERATION_ALLOW_HTTP is on (tests). */
export const federationRules = (config: FederationSettings): FederationRules => ({
  allowLoopbackHttp: config.federationAllowHttp,
  documentTimeoutMs: config.federationFetchTimeoutMs,
});

/** How the instance names itself to the servers it asks. */
export const userAgentOf = (config: Pick<FederationSettings, 'publicUrl'>) => `Kruh/${packageJson.version} (+${config.publicUrl})`;
