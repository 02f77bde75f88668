// Requests for AWS services the local endpoint does not serve (IAM, SNS, Lambda, Step Functions, Scheduler, Lake
// Formation, …): answered at once with an error in the protocol the caller speaks (request-protocol.ts), so its SDK
// raises a readable error naming the service instead of failing to parse an S3 document, and nothing is retried.
import { renderError, type ErrorStyle, type LocalRequest, type WireResponse } from './protocol';
import { requestShape, type RequestShape } from './request-protocol';
import { wireError } from './model/wire-errors';
import { SERVED_SIGNING_NAMES, servedServicesText } from './served-services';

/** Signing names → the names AWS's docs use (the lab's stacks deploy the first six). */
const SERVICE_NAMES: Record<string, string> = {
  iam: 'IAM',
  sns: 'SNS',
  lambda: 'Lambda',
  states: 'Step Functions',
  scheduler: 'EventBridge Scheduler',
  lakeformation: 'Lake Formation',
  logs: 'CloudWatch Logs',
  events: 'EventBridge',
  kms: 'KMS',
  sqs: 'SQS',
  dynamodb: 'DynamoDB',
  kinesis: 'Kinesis Data Streams',
  ec2: 'EC2',
  ssm: 'Systems Manager',
  secretsmanager: 'Secrets Manager',
  cloudformation: 'CloudFormation',
  'execute-api': 'API Gateway',
  apigateway: 'API Gateway',
  ecr: 'ECR',
  ecs: 'ECS',
  organizations: 'Organizations',
  cloudtrail: 'CloudTrail',
};

const SERVED = `it serves ${servedServicesText()}`;

/** The answer to a request for a service the endpoint does not serve, or undefined for one it serves. */
export function unservedServiceReply(request: LocalRequest): WireResponse | undefined {
  const shape = requestShape(request);
  if (!shape.signingName || SERVED_SIGNING_NAMES.has(shape.signingName)) return undefined;
  const name = SERVICE_NAMES[shape.signingName] ?? shape.signingName;
  const what = shape.operation
    ? ` operation ${shape.operation}`
    : ` request ${request.method} ${request.path}`;
  return refuse(
    request,
    shape,
    `${name} (signing name ${shape.signingName}) is not served by the local endpoint (loglake local): ${SERVED}. ` +
      `The${what} was not run; run it against AWS (--target aws).`,
  );
}

/** The answer to a request no served service claimed (an unknown target, path or action), in its protocol. */
export function unclaimedReply(request: LocalRequest, detail?: string): WireResponse {
  const shape = requestShape(request);
  const target = request.headers['x-amz-target'];
  const what = target
    ? `operation ${String(target)}`
    : shape.operation
      ? `operation ${shape.operation}${shape.protocol === 'awsQuery' ? ' (an awsQuery request)' : ''}`
      : `request ${request.method} ${request.path}`;
  return refuse(
    request,
    shape,
    `The ${what} is not supported by the local endpoint (loglake local): ${SERVED}.${detail ? ` ${detail}` : ''}`,
  );
}

function refuse(request: LocalRequest, shape: RequestShape, message: string): WireResponse {
  const style = styleOf(request, shape);
  const code = shape.protocol === 'awsQuery' ? 'UnsupportedOperation' : 'UnsupportedOperationException';
  return renderError(style, wireError(undefined, code, message));
}

function styleOf(request: LocalRequest, shape: RequestShape): ErrorStyle {
  switch (shape.protocol) {
    case 'awsQuery': {
      const version = new URLSearchParams(request.body.toString('utf8')).get('Version');
      const signing = shape.signingName ?? 'sts';
      return {
        protocol: 'awsQuery',
        messageKey: 'Message',
        ...(version ? { xmlNamespace: `https://${signing}.amazonaws.com/doc/${version}/` } : {}),
      };
    }
    case 'rpcv2Cbor':
      return { protocol: 'rpcv2Cbor', messageKey: 'message' };
    case 'awsJson1_0':
    case 'awsJson1_1':
      return { protocol: shape.protocol, messageKey: 'message' };
    case 'restXml':
      return { protocol: 'restXml', messageKey: 'Message' };
    default:
      return { protocol: 'restJson1', messageKey: 'message' };
  }
}
