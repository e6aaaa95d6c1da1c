/// <reference lib="dom" />
/**
 * The host side of the MCP Apps harness, run in Chromium: the SDK's own AppBridge (what a chat
 * host embeds) renders an app's page in a sandboxed frame under the CSP its resource metadata
 * allows, completes the handshake with the host's theme, sends the tool's arguments and result,
 * fits the frame to the size the app reports, and passes the app's tool calls and links to the
 * test (window.hostCallTool / window.hostOpenLink, exposed by Playwright). Bundled by
 * test/helpers/app-host.ts.
 */
import { AppBridge, PostMessageTransport, type McpUiHostContext, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';

export interface MountOptions {
  html: string;
  csp: McpUiResourceCsp;
  theme: 'light' | 'dark';
  args: Record<string, unknown>;
  result: CallToolResult;
}

declare global {
  interface Window {
    mountApp(opts: MountOptions): Promise<void>;
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
    hostOpenLink(url: string): Promise<void>;
  }
}

/** The policy a host derives from the resource's `_meta.ui.csp`: nothing beyond the declared domains. */
function policy(csp: McpUiResourceCsp): string {
  const extra = (list?: string[]) => (list?.length ? ` ${list.join(' ')}` : '');
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data:${extra(csp.resourceDomains)}`,
    `font-src data:${extra(csp.resourceDomains)}`,
    `connect-src 'none'${extra(csp.connectDomains)}`.replace("'none' ", ''),
    `frame-src 'none'${extra(csp.frameDomains)}`.replace("'none' ", ''),
  ].join('; ');
}

/** A host's theme variables (a subset of the extension's keys), as Claude-like hosts send them. */
const STYLES: Record<'light' | 'dark', NonNullable<McpUiHostContext['styles']>['variables']> = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-text-primary': '#1f1e1d',
    '--font-sans': 'system-ui, sans-serif',
  } as NonNullable<McpUiHostContext['styles']>['variables'],
  dark: {
    '--color-background-primary': '#262624',
    '--color-text-primary': '#f5f4ef',
    '--font-sans': 'system-ui, sans-serif',
  } as NonNullable<McpUiHostContext['styles']>['variables'],
};

window.mountApp = async ({ html, csp, theme, args, result }) => {
  document.body.dataset.theme = theme;
  const frame = document.createElement('iframe');
  frame.title = 'MCP App';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.srcdoc = html.replace(/<head>/i, `<head><meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`);
  document.querySelector('#apps')!.replaceChildren(frame);

  const bridge = new AppBridge(
    null,
    { name: 'hotelrates-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {} },
    {
      hostContext: {
        theme,
        styles: { variables: STYLES[theme] },
        locale: 'en-GB',
        platform: 'web',
        displayMode: 'inline',
        containerDimensions: { width: frame.getBoundingClientRect().width, maxHeight: 6000 },
      },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oncalltool = (params) => window.hostCallTool({ name: params.name, arguments: params.arguments });
  bridge.onopenlink = async ({ url }) => {
    await window.hostOpenLink(url);
    return {};
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
};
