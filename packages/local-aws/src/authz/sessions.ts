// The principals behind access keys: the local long-term keys (each stands for a session of one role) and the
// temporary credentials STS AssumeRole issues (an ASIA… key, a secret and a session token, valid until their
// expiration; kept in the data directory, so they survive a restart as they would on AWS).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { assumedRoleCaller, type Caller } from '../iam/principals';
import type { JsonStore } from '../store';
import type { LocalCredentialsSpec } from './options';
import { ACCESS_KEY_ID } from './sigv4';

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
    /** True for a role the endpoint knows (a session of any other role is not one it issued). */
    private readonly isRole: (arn: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    for (const c of credentials) this.longTerm.set(c.accessKeyId, c);
  }

  /**
   * The principal behind an access key. Nothing is taken on trust: a key without the form AWS gives keys is no key
   * (and is never looked up); a long-term key comes without a session token; a temporary key (ASIA…, the ones
   * AssumeRole issues) needs the exact token issued with it, and a session record that is whole — its own key, a
   * known role, a session name, an expiration that parses.
   */
  identify(accessKeyId: string, sessionToken: string | undefined): Identification {
    if (!ACCESS_KEY_ID.test(accessKeyId)) return { problem: 'unknown-key' };
    const fixed = this.longTerm.get(accessKeyId);
    if (fixed) {
      if (sessionToken !== undefined) return { problem: 'unknown-key' };
      return { caller: assumedRoleCaller(fixed.roleArn, fixed.sessionName) };
    }
    if (!accessKeyId.startsWith('ASIA')) return { problem: 'unknown-key' };
    const session = this.known.get(accessKeyId) ?? this.stored(accessKeyId);
    if (!session) return { problem: 'unknown-key' };
    this.known.set(accessKeyId, session);
    // A temporary key is valid only with the session token issued with it, compared exactly.
    if (sessionToken === undefined || !sameText(session.sessionToken, sessionToken))
      return { problem: 'unknown-key' };
    if (Date.parse(session.expiration) <= this.now()) return { problem: 'expired' };
    return { caller: assumedRoleCaller(session.roleArn, session.sessionName) };
  }

  /** The session issued with this key, if its record is one this store wrote. */
  private stored(accessKeyId: string): IssuedSession | undefined {
    const record = this.store.read<Partial<IssuedSession>>(['iam', 'sessions', accessKeyId]);
    if (
      !record ||
      record.accessKeyId !== accessKeyId ||
      typeof record.sessionToken !== 'string' ||
      record.sessionToken.length === 0 ||
      typeof record.secretAccessKey !== 'string' ||
      typeof record.roleArn !== 'string' ||
      !this.isRole(record.roleArn) ||
      typeof record.sessionName !== 'string' ||
      typeof record.expiration !== 'string' ||
      !Number.isFinite(Date.parse(record.expiration))
    )
      return undefined;
    return record as IssuedSession;
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

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
