// The principals behind access keys: the local long-term keys (each stands for a session of one role) and the
// temporary credentials STS AssumeRole issues (an ASIA… key, a secret and a session token, valid until their
// expiration; kept in the data directory, so they survive a restart as they would on AWS).
import { randomBytes } from 'node:crypto';
import { assumedRoleCaller, type Caller } from '../iam/principals';
import type { JsonStore } from '../store';
import type { LocalCredentialsSpec } from './options';

export interface IssuedSession {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  /** ISO instant. */
  readonly expiration: string;
  readonly roleArn: string;
  readonly sessionName: string;
}

export type Identification =
  | { readonly caller: Caller }
  /** No principal has this key, or a temporary key arrived without its token. */
  | { readonly problem: 'unknown-key' }
  | { readonly problem: 'expired' };

const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const keyId = (prefix: string) =>
  prefix + [...randomBytes(16)].map((b) => KEY_CHARS[b % KEY_CHARS.length]).join('');

export class SessionStore {
  private readonly longTerm = new Map<string, LocalCredentialsSpec>();
  /** Sessions read or issued so far (every request of a session would otherwise read its file). */
  private readonly known = new Map<string, IssuedSession>();

  constructor(
    credentials: readonly LocalCredentialsSpec[],
    private readonly store: JsonStore,
    private readonly now: () => number = Date.now,
  ) {
    for (const c of credentials) this.longTerm.set(c.accessKeyId, c);
  }

  identify(accessKeyId: string, sessionToken: string | undefined): Identification {
    const fixed = this.longTerm.get(accessKeyId);
    if (fixed) return { caller: assumedRoleCaller(fixed.roleArn, fixed.sessionName) };
    const session =
      this.known.get(accessKeyId) ?? this.store.read<IssuedSession>(['iam', 'sessions', accessKeyId]);
    if (session) this.known.set(accessKeyId, session);
    // A temporary key is valid only with the session token issued with it.
    if (!session || session.sessionToken !== sessionToken) return { problem: 'unknown-key' };
    if (Date.parse(session.expiration) <= this.now()) return { problem: 'expired' };
    return { caller: assumedRoleCaller(session.roleArn, session.sessionName) };
  }

  issue(roleArn: string, sessionName: string, durationSeconds: number): IssuedSession {
    const session: IssuedSession = {
      accessKeyId: keyId('ASIA'),
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: randomBytes(96).toString('base64'),
      expiration: new Date(this.now() + durationSeconds * 1000).toISOString(),
      roleArn,
      sessionName,
    };
    this.store.write(['iam', 'sessions', session.accessKeyId], session);
    this.known.set(session.accessKeyId, session);
    return session;
  }
}
