import { authenticator } from 'otplib';
import QRCode from 'qrcode';

authenticator.options = { window: 1, step: 30, digits: 6 };

export const newTotpSecret = () => authenticator.generateSecret(20);
export const totpVerify = (secret: string, code: string) => {
  try {
    return authenticator.verify({ token: code, secret });
  } catch {
    return false;
  }
};
export const totpNow = (secret: string) => authenticator.generate(secret);

export async function totpSetup(account: string, issuer: string, secret: string) {
  const otpauthUrl = authenticator.keyuri(account, issuer, secret);
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { otpauth_url: otpauthUrl, qr_data_url: qrDataUrl };
}
