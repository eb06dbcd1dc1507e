import { isMobileUserAgent, popupFeatures, shareLink, type ShareNetwork } from './shareLinks';

/**
 * Opens the network's share page in a centred popup. Returns false when the browser blocked it.
 * Throws ShareError when there is nothing to share.
 */
export function openSharePopup(network: ShareNetwork, url: string, text: string): boolean {
  const popup = shareLink(network, { url, text, mobile: isMobileUserAgent(navigator.userAgent) });
  const opened = window.open(
    popup.href,
    `netnet-share-${network}`,
    popupFeatures(popup, {
      left: window.screenX,
      top: window.screenY,
      width: window.outerWidth || window.innerWidth,
      height: window.outerHeight || window.innerHeight,
    }),
  );
  // The network's page must not be able to navigate ours.
  if (opened) opened.opener = null;
  return opened !== null;
}
