export type ProxyCoreErrorCode =
  | 'reality_needs_xray'
  | 'reality_needs_private_key'
  | 'reality_needs_sni'
  | 'reality_needs_tcp_or_grpc'
  | 'tls_needs_certificate'
  | 'ws_needs_path'
  | 'grpc_needs_service_name'
  | 'invalid_client_uuid'
  | 'invalid_fallback'
  | 'core_exited'
  | 'core_not_ready'
  | 'core_api_failed';

/** Errors of the proxy-core layer; `message` is what the operator reads (doctor, logs). */
export class ProxyCoreException extends Error {
  constructor(
    readonly code: ProxyCoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProxyCoreException';
  }
}
