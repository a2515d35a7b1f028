import crypto from 'node:crypto';

/** The fields of a presigned link that its signature covers. */
export interface LinkClaims {
  method: 'GET' | 'PUT';
  key: string;
  /** Unix seconds after which the link is refused. */
  expires: number;
  md5?: string | undefined;
  uploadId?: string | undefined;
  partNumber?: number | undefined;
}

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/** HMAC-SHA256 signatures for the links the embedded storage serves itself. */
export class LinkSigner {
  constructor(private readonly secret: string) {}

  sign(claims: LinkClaims): string {
    const payload = [claims.method, claims.key, claims.expires, claims.md5 ?? '', claims.uploadId ?? '', claims.partNumber ?? ''].join('\n');
    return crypto.createHmac('sha256', this.secret).update(payload).digest('hex');
  }

  check(claims: LinkClaims, signature: string, nowSeconds = Math.floor(Date.now() / 1000)): LinkCheck {
    const expected = Buffer.from(this.sign(claims), 'hex');
    const given = Buffer.from(signature, 'hex');
    // timingSafeEqual throws on different lengths; a short signature is simply invalid.
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    return claims.expires < nowSeconds ? 'expired' : 'valid';
  }
}
