// Turns an engine error into the AWS exception S3 Tables answers with. The engine's error classes are matched by
// name, so the endpoint does not depend on their module layout.
import { AwsServiceError } from './errors';

export function s3TablesErrorFor(error: unknown): AwsServiceError {
  if (error instanceof AwsServiceError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (/NotFound|NoSuch|DoesNotExist/i.test(name))
    return new AwsServiceError('NotFoundException', 404, message, {}, { cause: error });
  if (/AlreadyExists|Exists|Conflict|NotEmpty|InUse/i.test(name)) {
    return new AwsServiceError('ConflictException', 409, message, {}, { cause: error });
  }
  if (/Invalid|Validation|Schema|Type|BadRequest|Argument/i.test(name)) {
    return new AwsServiceError('BadRequestException', 400, message, {}, { cause: error });
  }
  return new AwsServiceError(
    'InternalServerErrorException',
    500,
    `Internal error in the local engine: ${message}`,
    {},
    { cause: error },
  );
}

/** An engine error as Glue answers it (a namespace seen as a Glue database of an S3 Tables catalog). */
export function glueErrorFor(error: unknown): AwsServiceError {
  if (error instanceof AwsServiceError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (/NotFound|NoSuch|DoesNotExist/i.test(name))
    return new AwsServiceError('EntityNotFoundException', 400, message, {}, { cause: error });
  if (/AlreadyExists|Exists/i.test(name))
    return new AwsServiceError('AlreadyExistsException', 400, message, {}, { cause: error });
  if (/Invalid|Validation|NotEmpty|InUse|Conflict/i.test(name))
    return new AwsServiceError('InvalidInputException', 400, message, {}, { cause: error });
  return new AwsServiceError(
    'InternalServiceException',
    500,
    `Internal error in the local engine: ${message}`,
    {},
    { cause: error },
  );
}
