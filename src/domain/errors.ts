/**
 * Failures the domain reports to its callers. Each class is one meaning; the HTTP layer
 * maps it to a status, the CLI to an exit code. Messages are shown to clients as they are.
 */
export class DomainError extends Error {}

/** The request is understood but not allowed as it stands (HTTP 400). */
export class InvalidRequest extends DomainError {}

/** No valid credentials (HTTP 401). */
export class Unauthenticated extends DomainError {}

/** The caller may not touch this resource (HTTP 403). */
export class Forbidden extends DomainError {}

/** The resource does not exist (HTTP 404). */
export class NotFound extends DomainError {}

/** A photo the engine cannot develop (corrupt, unsupported); trying again will not help. */
export class UnprocessablePhoto extends DomainError {}
