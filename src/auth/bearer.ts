/** `Bearer` in any case, exactly one space, then the key. */
const BEARER = /^bearer ([^\s]+)$/i;

/** The key an `Authorization` header presents, or undefined when it is not one. */
export function bearerKey(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
