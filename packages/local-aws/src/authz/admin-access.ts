// Who may use the endpoint's admin API (/_local/*) when it enforces authorization: an administrator — a principal
// named in `authorization.administrators` (the lab names its deployer), signing with SigV4 like any AWS client — or
// whoever holds the admin token the endpoint makes at start (`Authorization: Bearer <token>`; `pnpm lab local` prints
// it). The health answer stays open: it tells whether authorization is on, and nothing else worth hiding.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { LocalRequest, WireResponse } from '../protocol';
import { principalArnOf } from '../iam/principals';
import { refusal, type RefusingService } from './denials';
import type { RequestAuthorizer } from './request-authorizer';

/** The admin API answers in JSON (`{"message": …}`), refusals with the JSON services' names and HTTP 403. */
const ADMIN: RefusingService = { errorStyle: { protocol: 'restJson1', messageKey: 'message' } };
const OPEN_ROUTES = new Set(['GET /_local/health']);

export class AdminAccess {
  /** The admin token: whoever holds it may use the admin API (printed once at start, never stored). */
  readonly token = randomBytes(24).toString('base64url');
  private readonly administrators: ReadonlySet<string>;

  constructor(
    private readonly authorizer: RequestAuthorizer,
    administrators: readonly string[],
  ) {
    this.administrators = new Set(administrators);
  }

  /** Undefined when the request may go on; the refusal otherwise (nothing has run). */
  check(request: LocalRequest): WireResponse | undefined {
    if (OPEN_ROUTES.has(`${request.method} ${request.path}`)) return undefined;
    const authorization = request.headers['authorization'];
    const text = Array.isArray(authorization) ? authorization[0] : authorization;
    if (text?.startsWith('Bearer ')) {
      if (sameText(text.slice('Bearer '.length).trim(), this.token)) return undefined;
      return refusal(ADMIN, {
        kind: 'access-denied',
        message: "The admin token is not this endpoint's (it makes a new one at each start).",
      });
    }
    const who = this.authorizer.authenticate(request, ADMIN, undefined);
    if ('refused' in who) return who.refused;
    if (this.administrators.has(principalArnOf(who.caller))) return undefined;
    return refusal(ADMIN, {
      kind: 'access-denied',
      message: `User: ${who.caller.arn} is not authorized to use the local endpoint's admin API (${request.method} ${request.path}): only its administrators (authorization.administrators) or the holder of the admin token it printed at start may.`,
    });
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
