// The step the server runs before it dispatches a request to a service (when the endpoint enforces authorization):
// authenticate the caller from the request's SigV4 credential (./sigv4: the signature's form, the scope's service,
// the access key's form; ./sessions: the key's principal), find the IAM actions the request needs (./actions), and
// refuse it — in the service's own error shape — unless IAM allows every one of them. The caller then travels with
// the request, for what a service checks itself (Athena's statements, STS's AssumeRole, Firehose's roles).
import type { Caller } from '../iam/principals';
import type { LocalRequest, ServiceModule, WireResponse } from '../protocol';
import { requiredPermissions, type ResourceLookups } from './actions';
import { refusal, type RefusingService } from './denials';
import type { LocalIam } from './local-iam';
import { readCredential, SIGNING_NAMES, type RequestCredential } from './sigv4';

export type Authorization = { readonly caller: Caller } | { readonly refused: WireResponse };

export class RequestAuthorizer {
  constructor(
    private readonly iam: LocalIam,
    private readonly region: string,
    private readonly lookups: ResourceLookups,
  ) {}

  /** Who signed the request for the service named `signingName`, or the refusal in `service`'s shape. */
  authenticate(
    request: LocalRequest,
    service: RefusingService,
    signingName: string | undefined,
  ): { caller: Caller; credential: RequestCredential } | { refused: WireResponse } {
    const reading = readCredential(request, signingName);
    if ('problem' in reading)
      return { refused: refusal(service, { kind: 'credential', problem: reading.problem }) };
    const credential = reading.credential;
    const found = this.iam.sessions.identify(credential.accessKeyId, credential.sessionToken);
    if ('caller' in found) return { caller: found.caller, credential };
    return {
      refused: refusal(
        service,
        found.problem === 'expired'
          ? { kind: 'expired' }
          : { kind: 'unknown-key', accessKeyId: credential.accessKeyId },
      ),
    };
  }

  async authorize(request: LocalRequest, service: ServiceModule): Promise<Authorization> {
    const signingName = SIGNING_NAMES[service.name];
    if (!signingName) {
      const message = `The local endpoint knows no signing name for ${service.name}, so it refuses rather than guesses (add it to packages/local-aws/src/authz/sigv4.ts)`;
      return { refused: refusal(service, { kind: 'access-denied', message }) };
    }
    const who = this.authenticate(request, service, signingName);
    if ('refused' in who) return who;
    const { caller, credential } = who;
    // The request as the service reads it, read once (a body it cannot read throws the service's own error, after the
    // caller is known); the handler serves this same reading.
    const operation = service.operationOf?.(request);
    // An operation the module does not serve: its own answer says so.
    if (!operation) return { caller };
    const permissions = await requiredPermissions(
      {
        service: service.name,
        operation: operation.operation,
        params: operation.params,
        input: operation.input,
      },
      { region: this.region, lookups: this.lookups },
    );
    if (permissions === 'unmapped') {
      const message = `User: ${caller.arn} is not authorized to perform: ${service.name} ${operation.operation} because the local endpoint knows no IAM action for it (it refuses rather than guesses; add it to packages/local-aws/src/authz/actions.ts)`;
      return { refused: refusal(service, { kind: 'access-denied', message }) };
    }
    const context = this.iam.context(caller, { 'aws:RequestedRegion': credential.region });
    for (const { action, resource } of permissions) {
      const denial = this.iam.decide(caller, action, resource, {
        context,
        // S3's denials quote the resource (its XML errors); the other services' do not.
        quoteResource: service.errorStyle.protocol === 'restXml',
      });
      if (denial) return { refused: refusal(service, { kind: 'access-denied', message: denial.message }) };
    }
    return { caller };
  }
}
