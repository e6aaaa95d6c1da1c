import { createHmac } from 'node:crypto';

/*
 * Standard Webhooks v1 signing (https://www.standardwebhooks.com); the key comes from the checked
 * setting (config/webhook-settings.ts: webhookSigningKey).
 */

/** `v1,<base64 signature>` of one attempt. */
export function signWebhook(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
