/**
 * Who this service says it is in its documents. The interface (names, routes, version) is the one
 * technocore.chat publishes, so clients and catalogs that key on them keep working; the implementation
 * is this project, and the documents say so where they describe the source.
 */
export const SERVICE_NAME = 'technocore-chat';
/** The interface version this server implements (OpenAPI `info.version`, MCP server version). */
export const SERVICE_VERSION = '0.14.5';
export const DISPLAY_NAME = 'Technocore Chat';
/** This implementation. */
export const IMPLEMENTATION = 'agent-chat';
/** Where the interface this server implements is maintained (the reference implementation). */
export const INTERFACE_SOURCE_URL = 'https://github.com/flop-labs/technocore-chat';
export const LICENSE = 'Apache-2.0';
