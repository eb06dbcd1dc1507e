// The front door's nginx configuration, generated from the site table (@netnet/site) so a new
// remote or port needs no edit here. It reproduces what shell/server/httpServer.ts answers for the
// builds' files — hashed names immutable, entry documents no-cache, precompressed .br/.gz copies,
// CORS on the remotes' origins, the security headers of shell/server/securityHeaders.ts — and
// proxies everything the shell's server computes (pages, /config.json, /remotes.json, release-health
// reports, the releases' files from the store) to the shell instances. The topology and the limits
// are explained in docs/deploy.md.
import { join } from 'node:path';
import site from '@netnet/site';
import { documentHeaders, everyResponseHeaders } from 'shell/server/securityHeaders.ts';

/**
 * The abuse limits on nginx's side (docs/deploy.md, "Limits"). The shell's own server keeps its
 * limits too (shell/server/httpServer.ts); these are the same or tighter, so a client meets nginx's first.
 */
export const LIMITS = Object.freeze({
  /** Connections one client address may have being answered at once: shell/server/httpServer.ts's connectionsPerClient. */
  connectionsPerClient: 64,
  /** Milliseconds a client may take to send its request line and headers: shell/server/httpServer.ts's headersTimeout. */
  clientHeaderTimeoutMs: 1_500,
  /** Milliseconds between two reads of a request body (the instance gives the whole request 5 s). */
  clientBodyTimeoutMs: 5_000,
  /** Seconds between two writes of a response to a client that stopped reading. */
  sendTimeout: 30,
  /** Idle seconds before nginx closes a browser's keep-alive connection (an idle one costs nginx a few KB). */
  clientKeepAlive: 30,
  /** The largest request body: a release-health batch is at most 16 KB (control-plane/src/health/reports.ts). */
  maxBodyKb: 16,
  /**
   * Page requests one client address may have being rendered at once. Pages are the expensive
   * answers (a server render each): a client pipelining or opening many connections gets its share
   * and 429 past it, so the instances' render slots stay free for everyone else. A browser asks for
   * one page at a time; several members behind one NAT rarely have more than a few renders in
   * flight together (a render takes milliseconds).
   */
  pagesPerClient: 8,
  /**
   * Pages and /remotes.json answers per client address and second, and the burst above it. Each
   * carries a release-health ticket, so this bounds how many page loads one address can vouch for
   * (docs/release-health.md): far above what people behind one address load.
   */
  ticketsPerSecond: 20,
  ticketsBurst: 100,
  /**
   * Release-health batches per client address and second, and the burst above it: a flood guard
   * only. nginx cannot read a body, so a tight limit here would charge junk and then refuse the
   * real reports of other pages behind the same address; the collector refuses junk before it
   * charges its own, tighter, per-client bucket (control-plane/src/health/collector.ts).
   */
  reportsPerSecond: 200,
  reportsBurst: 400,
  /**
   * Idle seconds before nginx drops a kept-alive connection to an instance: shorter than the
   * instance's keepAliveTimeout (5 s, shell/server/httpServer.ts), so nginx never sends a request on a
   * connection the instance is closing at that moment.
   */
  upstreamKeepAlive: 4,
  /** Seconds a shell instance may take to answer before nginx tries another (a render has a 300 ms budget). */
  upstreamReadTimeout: 30,
});

// Webpack's [contenthash:10] names: the same test as shell/server/httpServer.ts's HASHED.
const HASHED = '\\.[0-9a-f]{10}\\.[a-z0-9]+$';

const quote = (value) => `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const headerLines = (headers, indent) =>
  Object.entries(headers).map(([name, value]) => `${indent}add_header ${name} ${quote(value)} always;`).join('\n');

/**
 * The headers of a file response: security headers, caching by name, CORS when the origin has it.
 * Written into each location, since a location with an add_header of its own inherits none.
 */
function fileHeaders({ cacheControl, cors, html, indent }) {
  const headers = {
    ...everyResponseHeaders,
    'Cache-Control': cacheControl,
    ...(cors && { 'Access-Control-Allow-Origin': '*' }),
    // `html`: the document headers of the pages, when the file may be one.
    ...(html && html),
  };
  return headerLines(headers, indent);
}

/** The locations that answer files of one folder as shell/server/httpServer.ts would, cache headers by name. */
function fileLocations({ cors, page, extra = '' }) {
  const i = '        ';
  const immutable = 'public, max-age=31536000, immutable';
  return `
    location ~ "${HASHED}" {
${extra}${fileHeaders({ cacheControl: immutable, cors, html: false, indent: i })}
${i}try_files $uri =404;
    }
    location ~ \\.html$ {
${extra}${fileHeaders({ cacheControl: 'no-cache', cors, html: page, indent: i })}
${i}try_files $uri =404;
    }
    location ~ /$ {
${extra}${fileHeaders({ cacheControl: 'no-cache', cors, html: page, indent: i })}
${i}try_files \${uri}index.html =404;
    }`;
}

/** Everything the file-serving server blocks share: precompressed copies, no links out, no dot names. */
function fileServing({ root: dir, cors }) {
  return `
    root ${dir};
    # .br/.gz copies the build wrote beside each text file, chosen by Accept-Encoding (Vary added).
    brotli_static on;
    gzip_static on;
    gzip_vary on;
    # As shell/server/staticFiles.ts: never a dot segment (dotfiles, the release tool's staging folders).
    # Unlike it, links are followed: disable_symlinks stops Debian's brotli_static module from
    # finding the .br copies, and the build and the release tool write no links (docs/deploy.md).
    location ~ /\\. { return 404; }
${cors ? `    # A preflight is answered here, before any location: their add_header lines would replace these.
${headerLines({ ...everyResponseHeaders, 'Access-Control-Allow-Origin': '*' }, '    ')}
    add_header Access-Control-Allow-Methods $preflight_methods always;
    if ($request_method = OPTIONS) { return 204; }
` : ''}`;
}

/**
 * How a server block passes requests to the instances: over kept-alive HTTP/1.1, with the client
 * named (X-Real-IP, believed for the front door's secret), a GET retried on another instance.
 */
function proxying(frontDoorSecret, limits) {
  return `        proxy_http_version 1.1;
${frontDoorSecret ? `        proxy_set_header X-Netnet-Front-Door "${frontDoorSecret}";
` : ''}        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_connect_timeout 1s;
        proxy_read_timeout ${limits.upstreamReadTimeout}s;
        # A GET whose instance refused, failed or died before answering goes to another instance.
        # Without non_idempotent, a POST that reached an instance is never sent twice.
        proxy_next_upstream error timeout http_502 http_503 http_504;
        proxy_next_upstream_tries 3;
        proxy_next_upstream_timeout 10s;
`;
}

/** Each a block of `listen` lines: loopback unless HOST names another address, as shell/server/httpServer.ts. */
const listen = (host, port) => `    listen ${host}:${port};`;

/**
 * @param {{ prefix: string, root: string, instances: number[], host: string, ports?: Record<string, number>,
 *   workers?: number | 'auto', user?: string | null, brotliModule: string,
 *   siteSettings: object, limits?: Partial<typeof LIMITS> }} options
 *   prefix: nginx's own folder (pid, logs, temp files); root: the checkout whose builds are served;
 *   instances: the shell instances' ports on 127.0.0.1; ports: where nginx listens (site.ports:
 *   shell, each remote, deploy); host: the cluster's config's (HOST);
 *   siteSettings: a config with the site table's map and runtime variables, whose origins the
 *   pages' policy allows; user: the account nginx's workers run as when started as root.
 */
export function nginxConfig({
  prefix,
  root,
  instances,
  host,
  ports = site.ports,
  workers = 1,
  user = null,
  brotliModule,
  siteSettings,
  limits: overrides = {},
  frontDoorSecret = '',
}) {
  if (!/^[A-Za-z0-9_-]*$/.test(frontDoorSecret)) throw new Error('the front door secret is base64url');
  if (instances.length === 0) throw new Error('the front door needs at least one shell instance');
  const limits = { ...LIMITS, ...overrides };
  const toInstances = proxying(frontDoorSecret, limits);
  // A page's headers, as an instance sends them with the same origins (without anyone's dev pins).
  const page = documentHeaders(siteSettings);
  const remoteServers = site.remotes.map(
    (remote) => `
# ${remote}'s own build, on its own origin as a CDN would serve it.
server {
${listen(host, ports[remote])}
${fileServing({ root: join(root, remote, 'dist'), cors: true })}${fileLocations({ cors: true, page })}
    location / {
${fileHeaders({ cacheControl: 'no-cache', cors: true, html: false, indent: '        ' })}
        try_files $uri $uri/index.html =404;
    }
}`,
  );
  return `# Generated by site/cluster/nginxConfig.mjs from the site table (site/table.cjs); edits here are overwritten.
# The topology and every limit below: docs/deploy.md.
load_module ${brotliModule};
${user ? `user ${user};\n` : ''}worker_processes ${workers};
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
daemon off;

events {
    worker_connections 4096;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    charset utf-8;
    charset_types text/css application/javascript application/json text/plain image/svg+xml;
    sendfile on;
    tcp_nopush on;
    server_tokens off;
    # The combined format without the query and the Referer: an address's query may hold a QA
    # token (the shell's server moves it to a cookie at once, but the first request carries it).
    log_format netnet '$remote_addr - $remote_user [$time_local] "$request_method $uri $server_protocol" $status $body_bytes_sent "$http_user_agent"';
    access_log ${join(prefix, 'logs', 'access.log')} netnet buffer=64k flush=1s;
    client_body_temp_path ${join(prefix, 'temp', 'client_body')};
    proxy_temp_path ${join(prefix, 'temp', 'proxy')};
    fastcgi_temp_path ${join(prefix, 'temp', 'fastcgi')};
    uwsgi_temp_path ${join(prefix, 'temp', 'uwsgi')};
    scgi_temp_path ${join(prefix, 'temp', 'scgi')};

    # Abuse limits (docs/deploy.md, "Limits").
    client_header_timeout ${limits.clientHeaderTimeoutMs}ms;
    client_body_timeout ${limits.clientBodyTimeoutMs}ms;
    send_timeout ${limits.sendTimeout}s;
    keepalive_timeout ${limits.clientKeepAlive}s;
    client_max_body_size ${limits.maxBodyKb}k;
    limit_conn_zone $binary_remote_addr zone=per_client:10m;
    limit_conn per_client ${limits.connectionsPerClient};
    limit_conn_zone $binary_remote_addr zone=pages_per_client:10m;
    limit_conn_status 429;
    limit_req_zone $binary_remote_addr zone=reports:10m rate=${limits.reportsPerSecond}r/s;
    limit_req_zone $binary_remote_addr zone=tickets:10m rate=${limits.ticketsPerSecond}r/s;
    limit_req_status 429;
    map $request_method $preflight_methods {
        OPTIONS "GET, HEAD, OPTIONS";
        default "";
    }

    upstream shell_instances {
        zone shell_instances 64k;
        # One failure takes an instance out for a second: long enough to route round a restart or a
        # crash, short enough that a replacement is back in rotation at once.
${instances.map((instance) => `        server 127.0.0.1:${instance} max_fails=1 fail_timeout=1s;`).join('\n')}
        keepalive 64;
        keepalive_timeout ${limits.upstreamKeepAlive}s;
        keepalive_requests 10000;
    }
    # Release-health batches by their ticket (?k=): every copy of one ticket reaches the same
    # instance, whose memory counts each page load once.
    upstream shell_reports {
        zone shell_reports 64k;
        hash $arg_k consistent;
${instances.map((instance) => `        server 127.0.0.1:${instance} max_fails=1 fail_timeout=1s;`).join('\n')}
        keepalive 64;
        keepalive_timeout ${limits.upstreamKeepAlive}s;
        keepalive_requests 10000;
    }

    # The site: the shell's files from disk, everything its server computes from an instance.
    server {
${listen(host, ports.shell)}
${fileServing({ root: join(root, 'shell', 'dist'), cors: false })}
${toInstances}
    # The server's own code, each instance's probes and its Prometheus figures: for the
    # orchestrator and the operator's scraper on the instance's own port, not for browsers.
    location ^~ /server/ { return 404; }
    location = /healthz { return 404; }
    location = /livez { return 404; }
    location = /metrics { return 404; }

    location = /health/reports {
        limit_req zone=reports burst=${limits.reportsBurst} nodelay;
        proxy_pass http://shell_reports;
    }
    location = /config.json { proxy_pass http://shell_instances; }
    # The releases' files, as on the releases' origin below (a page may name either).
    location ^~ /releases/ {
        charset off;
        proxy_pass http://shell_instances;
    }
    location = /remotes.json {
        limit_req zone=tickets burst=${limits.ticketsBurst} nodelay;
        proxy_pass http://shell_instances;
    }
    # A last segment with an extension names a file (shell/server/staticFiles.ts, LOOKS_LIKE_FILE).
    location ~ "/[^/]+\\.\\w+$" {
${fileHeaders({ cacheControl: 'no-cache', cors: false, html: false, indent: '        ' })}
        try_files $uri =404;
        location ~ "${HASHED}" {
${fileHeaders({ cacheControl: 'public, max-age=31536000, immutable', cors: false, html: false, indent: '            ' })}
            try_files $uri =404;
        }
        location ~ \\.html$ {
${fileHeaders({ cacheControl: 'no-cache', cors: false, html: page, indent: '            ' })}
            try_files $uri =404;
        }
    }
    # Every page address: rendered by an instance, a few at once per client.
    location / {
        limit_conn pages_per_client ${limits.pagesPerClient};
        limit_req zone=tickets burst=${limits.ticketsBurst} nodelay;
        proxy_pass http://shell_instances;
    }
    }
${remoteServers.join('\n')}

# The published releases: each instance's /releases/ route answers them from the store
# (shell/server/releaseFiles.ts), with its own headers (caching by name, CORS, the encodings,
# ETag and 304), which pass through untouched; nginx caches nothing, as a CDN in front may.
server {
${listen(host, ports.deploy)}
${toInstances}
    # The instance's Content-Type as it is (no charset added).
    charset off;
    location / { proxy_pass http://shell_instances/releases/; }
}
}
`;
}
