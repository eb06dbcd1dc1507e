// Share links for the five networks (docs/product.md#share-overlay): pure, so every URL and size
// is checked by unit tests rather than by opening popups.

export type ShareNetwork = 'whatsapp' | 'telegram' | 'line' | 'linkedin' | 'facebook';

export const SHARE_NETWORKS: readonly { id: ShareNetwork; label: string }[] = [
  { id: 'whatsapp', label: 'WhatsApp' },
  { id: 'telegram', label: 'Telegram' },
  { id: 'line', label: 'Line' },
  { id: 'linkedin', label: 'LinkedIn' },
  { id: 'facebook', label: 'Facebook' },
];

export const POPUP_SIZES: Readonly<Record<ShareNetwork, { width: number; height: number }>> = {
  whatsapp: { width: 550, height: 400 },
  telegram: { width: 550, height: 400 },
  facebook: { width: 550, height: 400 },
  line: { width: 500, height: 500 },
  linkedin: { width: 750, height: 600 },
};

export const PRODUCT_NAME = 'Netnet';

/** A share was asked for without what it needs (sharing needs a non-empty url). */
export class ShareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShareError';
  }
}

export const shareMessage = (title: string): string => `Seen "${title}" on ${PRODUCT_NAME} yet?`;

/** WhatsApp's app link only works on phones; elsewhere its web client does. */
export const isMobileUserAgent = (userAgent: string): boolean =>
  /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(userAgent);

interface ShareInput {
  url: string;
  text: string;
  mobile: boolean;
}

export interface SharePopup {
  href: string;
  width: number;
  height: number;
}

const query = (params: Record<string, string>): string =>
  Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');

function endpoint(network: ShareNetwork, { url, text, mobile }: ShareInput): string {
  switch (network) {
    case 'whatsapp':
      return `https://${mobile ? 'api' : 'web'}.whatsapp.com/send?${query({ text: text ? `${text} ${url}` : url })}`;
    case 'telegram':
      return `https://t.me/share/url?${query({ url, text })}`;
    case 'line':
      return `https://social-plugins.line.me/lineit/share?${query({ url, text })}`;
    case 'linkedin':
      return `https://www.linkedin.com/shareArticle?${query({ mini: 'true', url, title: text })}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?${query({ u: url, quote: text })}`;
  }
}

export function shareLink(network: ShareNetwork, input: ShareInput): SharePopup {
  if (!input.url.trim()) throw new ShareError('This title has no link to share.');
  return { href: endpoint(network, input), ...POPUP_SIZES[network] };
}

interface ScreenBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** window.open features that centre a popup of this size over the current window. */
export function popupFeatures({ width, height }: { width: number; height: number }, over: ScreenBox): string {
  const left = Math.max(0, Math.round(over.left + (over.width - width) / 2));
  const top = Math.max(0, Math.round(over.top + (over.height - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}
