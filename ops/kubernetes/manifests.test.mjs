// The Kubernetes manifests (ops/kubernetes/, docs/kubernetes.md), rendered as `kubectl apply -k`
// would render them and held to the Kubernetes schemas and to the rules the site's processes
// need: probes on the paths they answer, no secret in the repository, no disk shared or kept,
// every container locked down but for what bubblewrap needs, and the front door's limits.
//
// The renderer does what kustomize does for the features used here (resources, namespace,
// images, strategic merge patches matched by kind and name, JSON 6902 patches with a target) and
// refuses any other, so a kustomization that outgrows it fails here instead of rendering wrong.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { LIMITS } from '../../site/cluster/nginxConfig.mjs';
import { LIVE_PATH, READY_PATH } from '../../shell/server/lifecycle.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const source = (path) => readFileSync(join(root, path), 'utf8');

// ---- Rendering, as kustomize does for what these kustomizations use ----

const MODELS = new Map(
  [Namespace, ConfigMap, Service, Deployment, Job, HorizontalPodAutoscaler, PodDisruptionBudget, Ingress, NetworkPolicy].map((model) => [`${model.apiVersion}/${model.kind}`, model]),
);
const CLUSTER_SCOPED = new Set(['Namespace']);
const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'patches']);
// The lists a strategic merge patch merges by `name` (their patchMergeKey in the Kubernetes API).
// Any other list of objects may have another key: such a patch is refused, to be written as JSON 6902.
const MERGED_BY_NAME = new Set(['containers', 'initContainers', 'env', 'volumes']);

// Rendered objects are plain YAML data: a JSON round trip copies them whole.
const copyOf = (value) => JSON.parse(JSON.stringify(value));
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every document of a YAML file, read as kubectl reads it (YAML 1.1: `on` and `yes` are booleans). */
function documents(file) {
  return parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1', uniqueKeys: true }).flatMap((document) => {
    if (document.errors.length) throw new Error(`${file}: ${document.errors[0].message}`);
    const value = document.toJS();
    return value === null ? [] : [value];
  });
}

function strategicMerge(base, patch, at) {
  if (isObject(patch)) {
    if (!isObject(base)) return patch;
    const merged = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (key.startsWith('$')) throw new Error(`${at}: the directive ${key} is not rendered here`);
      if (value === null) delete merged[key];
      else merged[key] = key in base ? strategicMerge(base[key], value, `${at}.${key}`) : value;
    }
    return merged;
  }
  if (Array.isArray(patch) && patch.some(isObject)) {
    const key = at.split('.').at(-1);
    if (!MERGED_BY_NAME.has(key)) throw new Error(`${at}: a list of objects; patch it with a JSON 6902 patch`);
    const merged = base.map((item) => {
      const change = patch.find((one) => one.name === item.name);
      return change ? strategicMerge(item, change, `${at}[${item.name}]`) : item;
    });
    return [...merged, ...patch.filter((one) => !base.some((item) => item.name === one.name))];
  }
  return patch;
}

/** RFC 6902's add, replace and remove, on a copy. */
function jsonPatch(object, operations, at) {
  const copy = copyOf(object);
  for (const { op, path, value } of operations) {
    const keys = path.split('/').slice(1).map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop();
    const parent = keys.reduce((node, key) => {
      if (node === undefined || node === null || !(key in node)) throw new Error(`${at}: ${path} does not exist`);
      return node[key];
    }, copy);
    const exists = parent !== undefined && last in parent;
    if (op === 'replace' || op === 'remove') {
      if (!exists) throw new Error(`${at}: ${op} ${path}, which does not exist`);
      if (op === 'remove') {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else parent[last] = value;
    } else if (op === 'add') {
      if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, value);
      else parent[last] = value;
    } else throw new Error(`${at}: the operation ${op} is not rendered here`);
  }
  return copy;
}

const nameMatches = (pattern, name) => new RegExp(`^(?:${pattern})$`).test(name);

function applyPatch(objects, entry, dir) {
  const where = `${dir}: patch ${entry.path}`;
  if (!entry.path) throw new Error(`${where}: only patches in files are rendered here`);
  const body = documents(join(dir, entry.path));
  if (entry.target) {
    const { kind, name, ...rest } = entry.target;
    if (Object.keys(rest).length) throw new Error(`${where}: only kind and name select a target here`);
    const chosen = (object) => (!kind || object.kind === kind) && (!name || nameMatches(name, object.metadata.name));
    if (!objects.some(chosen)) throw new Error(`${where}: no object matches its target`);
    const operations = body.length === 1 && Array.isArray(body[0]) ? body[0] : null;
    return objects.map((object) => {
      if (!chosen(object)) return object;
      return operations ? jsonPatch(object, operations, where) : body.reduce((patched, patch) => strategicMerge(patched, patch, `${where} ${object.kind}/${object.metadata.name}`), object);
    });
  }
  let patched = objects;
  for (const patch of body) {
    const same = (object) => object.kind === patch.kind && object.apiVersion === patch.apiVersion && object.metadata.name === patch.metadata.name;
    if (!patched.some(same)) throw new Error(`${where}: no ${patch.kind}/${patch.metadata?.name} to patch`);
    patched = patched.map((object) => (same(object) ? strategicMerge(object, patch, `${where} ${patch.kind}/${patch.metadata.name}`) : object));
  }
  return patched;
}

const podSpecOf = (object) => (object.kind === 'Deployment' || object.kind === 'Job' ? object.spec.template.spec : null);

function setImages(object, images) {
  const spec = podSpecOf(object);
  if (!spec) return object;
  const copy = copyOf(object);
  for (const container of [...(podSpecOf(copy).initContainers ?? []), ...podSpecOf(copy).containers]) {
    const [name] = container.image.split(/[:@]/);
    const image = images.find((one) => one.name === name);
    if (image) container.image = `${image.newName ?? name}${image.newTag ? `:${image.newTag}` : ''}`;
  }
  return copy;
}

/** The objects `kubectl kustomize <dir>` prints, in the order their files list them. */
function render(dir) {
  const [kustomization] = documents(join(dir, 'kustomization.yaml'));
  const unknown = Object.keys(kustomization).filter((key) => !KUSTOMIZATION_FIELDS.has(key));
  if (unknown.length) throw new Error(`${dir}/kustomization.yaml: ${unknown.join(', ')} is not rendered here`);
  let objects = kustomization.resources.flatMap((resource) => {
    const path = join(dir, resource);
    return statSync(path).isDirectory() ? render(path) : documents(path);
  });
  for (const entry of kustomization.patches ?? []) objects = applyPatch(objects, entry, dir);
  if (kustomization.namespace) {
    objects = objects.map((object) => (CLUSTER_SCOPED.has(object.kind) ? object : { ...object, metadata: { ...object.metadata, namespace: kustomization.namespace } }));
  }
  if (kustomization.images) objects = objects.map((object) => setImages(object, kustomization.images));
  return objects;
}

// ---- What the rules read ----

/** control-plane/src/releases/archive.ts's UPLOAD_LIMITS.archiveBytes, in MiB (read, not imported: it pulls the whole publish path in). */
const uploadMiB = Number(/archiveBytes: (\d+) \* MiB/.exec(source('control-plane/src/releases/archive.ts'))?.[1]);
/** control-plane/src/api/server.ts's API_LIMITS.connectionsPerClient. */
const apiConnections = Number(/connectionsPerClient: (\d+),/.exec(source('control-plane/src/api/server.ts'))?.[1]);

/** What each served container answers its probes on, and the variable that says its port. */
const SERVED = {
  shell: { ready: READY_PATH, live: LIVE_PATH, portVariable: 'PORT' },
  // Its description is the one answer without a token (control-plane/src/api/server.ts).
  api: { ready: '/openapi.yaml', live: '/openapi.yaml', portVariable: 'NETNET_CONTROL_PORT' },
  catalogue: { ready: '/health', live: '/health', portVariable: 'PORT' },
};
/** The containers that run releases' server code under bubblewrap (docs/sandbox.md). */
const SANDBOXED = new Set(['shell', 'api']);
/** Which database login each workload may have (docs/store.md, "Roles"). */
const LOGINS = { shell: 'DATABASE_URL_INSTANCE', api: 'DATABASE_URL_API', guard: 'DATABASE_URL_CLI', migrate: 'DATABASE_URL' };
const SECRET_NAME = /^(DATABASE_URL|FIREBASE_)|SECRET|TOKEN|PASSWORD|_KEY$|HEADERS$/;
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;

const byKind = (objects, kind) => objects.filter((object) => object.kind === kind);
const named = (objects, kind, name) => objects.find((object) => object.kind === kind && object.metadata.name === name);
const workloads = (objects) => objects.filter(podSpecOf);
const containersOf = (object) => [...(podSpecOf(object).initContainers ?? []), ...podSpecOf(object).containers];
const componentOf = (object) => object.metadata.labels?.['app.kubernetes.io/component'];
const selects = (selector, labels) => Object.keys(selector ?? {}).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);
const portOf = (container, port) => (container.ports ?? []).find((one) => one.name === port || one.containerPort === port);
const annotation = (ingress, name) => ingress.metadata.annotations?.[`nginx.ingress.kubernetes.io/${name}`];

/**
 * The Ingress and path ingress-nginx sends `path` on `host` to, and the path the Service then gets
 * (`rewrite-target`): without regular expressions an Exact path first, then the longest Prefix.
 */
function route(ingresses, host, path) {
  const paths = ingresses.flatMap((ingress) =>
    ingress.spec.rules.filter((rule) => rule.host === host).flatMap((rule) => rule.http.paths.map((entry) => ({ ingress, ...entry }))),
  );
  // One use-regex or rewrite-target on a host turns every path of that host into a
  // case-insensitive regex prefix, tried longest first.
  const regex = ingresses.some((ingress) => (annotation(ingress, 'use-regex') === 'true' || annotation(ingress, 'rewrite-target')) && ingress.spec.rules.some((rule) => rule.host === host));
  let found;
  if (regex) {
    found = [...paths].sort((a, b) => b.path.length - a.path.length).find((entry) => new RegExp(`^${entry.path}`, 'i').test(path));
  } else {
    const segments = (value) => value.split('/').filter(Boolean);
    found =
      paths.find((entry) => entry.pathType === 'Exact' && entry.path === path) ??
      paths
        .filter((entry) => entry.pathType === 'Prefix' && segments(entry.path).every((segment, at) => segments(path)[at] === segment))
        .sort((a, b) => segments(b.path).length - segments(a.path).length)[0];
  }
  if (!found) return undefined;
  const rewrite = annotation(found.ingress, 'rewrite-target');
  return { ...found, upstreamPath: rewrite ? path.replace(new RegExp(`^${found.path}`, 'i'), rewrite) : path };
}

const hostOf = (objects, name) => named(objects, 'Ingress', name).spec.rules[0].host;

// ---- The rules, for the base and for each overlay ----

const TARGETS = { base: join(here, 'base'), production: join(here, 'overlays/production') };

for (const [target, dir] of Object.entries(TARGETS)) {
  describe(`ops/kubernetes ${target}`, () => {
    const objects = render(dir);
    const settings = named(objects, 'ConfigMap', 'netnet-settings').data;

    it('renders objects each valid against the Kubernetes schemas, each once', () => {
      assert.ok(objects.length > 0);
      for (const object of objects) {
        const Model = MODELS.get(`${object.apiVersion}/${object.kind}`);
        assert.ok(Model, `${object.apiVersion} ${object.kind} ${object.metadata?.name}: a kind this test does not know`);
        assert.doesNotThrow(() => new Model(object).validate(), `${object.kind}/${object.metadata.name}`);
        assert.equal(objects.filter((other) => other.kind === object.kind && other.metadata.name === object.metadata.name).length, 1, `${object.kind}/${object.metadata.name} twice`);
        if (!CLUSTER_SCOPED.has(object.kind)) assert.equal(object.metadata.namespace, 'netnet', `${object.kind}/${object.metadata.name}'s namespace`);
      }
    });

    it('gives every container CPU and memory requests and limits', () => {
      for (const workload of workloads(objects)) {
        for (const container of containersOf(workload)) {
          for (const kind of ['requests', 'limits']) {
            for (const resource of ['cpu', 'memory']) {
              assert.ok(container.resources?.[kind]?.[resource], `${workload.metadata.name}/${container.name}: no ${resource} ${kind}`);
            }
          }
        }
      }
    });

    it('probes the shell, the API and the catalogue where they answer, on the port they listen on', () => {
      assert.match(source('catalogue/src/server.ts'), /app\.get\('\/health'/);
      assert.match(source('control-plane/src/api/server.ts'), /url: '\/openapi\.yaml'/);
      const seen = new Set();
      for (const workload of workloads(objects)) {
        for (const container of containersOf(workload)) {
          if (!container.ports?.length) continue;
          const served = SERVED[container.name];
          assert.ok(served, `${workload.metadata.name}/${container.name} listens, but this test knows no probe paths for it`);
          seen.add(container.name);
          const listens = container.env?.find((variable) => variable.name === served.portVariable)?.value;
          assert.equal(Number(listens), container.ports[0].containerPort, `${container.name}: ${served.portVariable} is not its containerPort`);
          for (const [probe, path] of [['readinessProbe', served.ready], ['livenessProbe', served.live]]) {
            const get = container[probe]?.httpGet;
            assert.ok(get, `${container.name}: no ${probe} over HTTP`);
            assert.equal(get.path, path, `${container.name}: ${probe} path`);
            assert.ok(portOf(container, get.port), `${container.name}: ${probe} port ${get.port} is none of its ports`);
          }
        }
      }
      assert.deepEqual([...seen].sort(), Object.keys(SERVED).sort());
    });

    it('keeps no secret: every secret-looking variable comes from a Secret the operator makes', () => {
      assert.deepEqual(byKind(objects, 'Secret'), []);
      for (const workload of workloads(objects)) {
        for (const container of containersOf(workload)) {
          assert.equal(container.envFrom, undefined, `${container.name}: envFrom hides which variables it gets`);
          for (const variable of container.env ?? []) {
            if (SECRET_NAME.test(variable.name)) {
              assert.ok(variable.valueFrom?.secretKeyRef, `${workload.metadata.name}/${container.name}: ${variable.name} is not from a secretKeyRef`);
            }
            assert.doesNotMatch(variable.value ?? '', URL_WITH_PASSWORD, `${container.name}: ${variable.name} holds a password`);
          }
        }
      }
      for (const configMap of byKind(objects, 'ConfigMap')) {
        for (const [key, value] of Object.entries(configMap.data ?? {})) {
          assert.doesNotMatch(key, SECRET_NAME, `${configMap.metadata.name}: ${key} belongs in a Secret`);
          assert.doesNotMatch(value, URL_WITH_PASSWORD, `${configMap.metadata.name}: ${key} holds a password`);
        }
      }
    });

    it('gives each workload its own database login only, the owner\'s to the migrations alone', () => {
      for (const workload of workloads(objects)) {
        const logins = containersOf(workload).flatMap((container) => (container.env ?? []).filter((variable) => variable.name.startsWith('DATABASE_URL')).map((variable) => variable.name));
        const own = LOGINS[componentOf(workload)];
        assert.deepEqual(logins, own ? [own] : [], `${workload.metadata.name}'s database logins`);
      }
      assert.equal(named(objects, 'Job', 'netnet-migrate').spec.template.spec.containers[0].env.find((variable) => variable.name === 'DATABASE_URL').valueFrom.secretKeyRef.optional, undefined);
    });

    it('mounts no disk but a pod\'s own emptyDir: nothing shared, nothing kept', () => {
      for (const kind of ['PersistentVolumeClaim', 'PersistentVolume', 'StatefulSet']) assert.deepEqual(byKind(objects, kind), [], kind);
      for (const workload of workloads(objects)) {
        const spec = podSpecOf(workload);
        for (const volume of spec.volumes ?? []) {
          assert.deepEqual(Object.keys(volume).sort(), ['emptyDir', 'name'], `${workload.metadata.name}: volume ${volume.name} is not an emptyDir`);
        }
        for (const host of ['hostNetwork', 'hostPID', 'hostIPC']) assert.notEqual(spec[host], true, `${workload.metadata.name}: ${host}`);
      }
    });

    it('locks every container down, loosening only what bubblewrap needs in the shell and the API', () => {
      const sandboxed = new Set();
      for (const workload of workloads(objects)) {
        const pod = podSpecOf(workload);
        const where = workload.metadata.name;
        assert.equal(pod.securityContext?.runAsNonRoot, true, `${where}: runAsNonRoot`);
        assert.ok(pod.securityContext?.runAsUser > 0, `${where}: a numeric user other than root`);
        assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', `${where}: the pod's seccomp profile`);
        assert.equal(pod.automountServiceAccountToken, false, `${where}: a service account token it has no use for`);
        assert.equal(pod.enableServiceLinks, false, `${where}: service links, read as settings`);
        for (const container of containersOf(workload)) {
          const context = container.securityContext ?? {};
          const at = `${where}/${container.name}`;
          assert.equal(context.allowPrivilegeEscalation, false, `${at}: allowPrivilegeEscalation`);
          assert.equal(context.readOnlyRootFilesystem, true, `${at}: readOnlyRootFilesystem`);
          assert.deepEqual(context.capabilities, { drop: ['ALL'] }, `${at}: capabilities`);
          assert.notEqual(context.privileged, true, `${at}: privileged`);
          assert.notEqual(context.runAsUser, 0, `${at}: root`);
          const loosened = { seccomp: context.seccompProfile?.type, appArmor: context.appArmorProfile?.type, procMount: context.procMount, hostUsers: pod.hostUsers };
          if (SANDBOXED.has(container.name)) {
            sandboxed.add(container.name);
            assert.deepEqual(loosened, { seccomp: 'Unconfined', appArmor: 'Unconfined', procMount: 'Unmasked', hostUsers: false }, `${at}: what bubblewrap needs`);
            const tmp = (container.volumeMounts ?? []).find((mount) => mount.mountPath === '/tmp');
            assert.ok(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir, `${at}: /tmp for the render processes' folders`);
          } else {
            assert.ok([undefined, 'RuntimeDefault'].includes(loosened.seccomp), `${at}: seccomp ${loosened.seccomp}`);
            assert.ok([undefined, 'RuntimeDefault'].includes(loosened.appArmor), `${at}: AppArmor ${loosened.appArmor}`);
            assert.ok([undefined, 'Default'].includes(loosened.procMount), `${at}: procMount ${loosened.procMount}`);
          }
        }
      }
      assert.deepEqual([...sandboxed].sort(), [...SANDBOXED].sort());
    });

    it("points every Service at a Deployment's pods and one of their ports", () => {
      const deployments = byKind(objects, 'Deployment');
      for (const deployment of deployments) {
        assert.ok(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels), `${deployment.metadata.name}: its selector misses its own pods`);
      }
      for (const service of byKind(objects, 'Service')) {
        const deployment = deployments.find((one) => selects(service.spec.selector, one.spec.template.metadata.labels));
        assert.ok(deployment, `Service ${service.metadata.name} selects no Deployment's pods`);
        for (const port of service.spec.ports) {
          assert.ok(deployment.spec.template.spec.containers.some((container) => portOf(container, port.targetPort)), `Service ${service.metadata.name}: no container port ${port.targetPort}`);
        }
      }
    });

    it('sends every Ingress backend to an existing Service and one of its ports', () => {
      for (const ingress of byKind(objects, 'Ingress')) {
        for (const rule of ingress.spec.rules) {
          assert.deepEqual(ingress.spec.tls?.flatMap((tls) => tls.hosts), [rule.host], `${ingress.metadata.name}: TLS for its host`);
          for (const { backend } of rule.http.paths) {
            const service = named(objects, 'Service', backend.service.name);
            assert.ok(service, `${ingress.metadata.name}: no Service ${backend.service.name}`);
            const { name, number } = backend.service.port;
            assert.ok(service.spec.ports.some((port) => port.name === name || port.port === number), `${ingress.metadata.name}: ${backend.service.name} has no port ${name ?? number}`);
          }
        }
      }
    });

    it('scales an existing Deployment that leaves its replica count to the autoscaler, and budgets its disruptions', () => {
      const autoscalers = byKind(objects, 'HorizontalPodAutoscaler');
      assert.ok(autoscalers.length > 0);
      for (const autoscaler of autoscalers) {
        const { apiVersion, kind, name } = autoscaler.spec.scaleTargetRef;
        const deployment = named(objects, kind, name);
        assert.ok(deployment && apiVersion === deployment.apiVersion, `${autoscaler.metadata.name}: no ${kind} ${name}`);
        assert.equal(deployment.spec.replicas, undefined, `${name}: a replica count of its own, which every apply would reset`);
        assert.ok(autoscaler.spec.minReplicas >= 2, `${name}: at least two, so one answers while the other restarts`);
        assert.ok(autoscaler.spec.metrics.some((metric) => metric.resource?.name === 'cpu'), `${name}: scaled on CPU`);
        assert.ok(
          byKind(objects, 'PodDisruptionBudget').some((budget) => selects(budget.spec.selector.matchLabels, deployment.spec.template.metadata.labels)),
          `${name}: no PodDisruptionBudget`,
        );
      }
      for (const budget of byKind(objects, 'PodDisruptionBudget')) {
        assert.ok(byKind(objects, 'Deployment').some((one) => selects(budget.spec.selector.matchLabels, one.spec.template.metadata.labels)), `${budget.metadata.name} selects no pods`);
      }
    });

    it("carries the front door's limits (site/cluster/nginxConfig.mjs) and the API's", () => {
      const ingress = (name) => named(objects, 'Ingress', name);
      const pages = ingress('netnet-pages');
      const reports = ingress('netnet-reports');
      const files = ingress('netnet-files');
      assert.equal(Number(annotation(pages, 'limit-connections')), LIMITS.pagesPerClient);
      assert.equal(Number(annotation(pages, 'limit-rps')), LIMITS.ticketsPerSecond);
      assert.equal(annotation(pages, 'limit-rps') * annotation(pages, 'limit-burst-multiplier'), LIMITS.ticketsBurst);
      assert.equal(Number(annotation(reports, 'limit-rps')), LIMITS.reportsPerSecond);
      assert.equal(annotation(reports, 'limit-rps') * annotation(reports, 'limit-burst-multiplier'), LIMITS.reportsBurst);
      assert.equal(annotation(reports, 'upstream-hash-by'), '$arg_k');
      for (const site of [reports, files, ingress('netnet-releases'), ingress('netnet-catalogue')]) {
        assert.equal(Number(annotation(site, 'limit-connections')), LIMITS.connectionsPerClient, site.metadata.name);
      }
      for (const site of [pages, reports, files, ingress('netnet-releases'), ingress('netnet-catalogue')]) {
        assert.equal(annotation(site, 'proxy-body-size'), `${LIMITS.maxBodyKb}k`, site.metadata.name);
        assert.equal(Number(annotation(site, 'proxy-read-timeout')), LIMITS.upstreamReadTimeout, site.metadata.name);
        assert.equal(annotation(site, 'proxy-next-upstream'), 'error timeout http_502 http_503 http_504', site.metadata.name);
      }
      const control = ingress('netnet-control');
      assert.equal(annotation(control, 'proxy-body-size'), `${uploadMiB}m`);
      assert.equal(Number(annotation(control, 'limit-connections')), apiConnections);
    });

    it('routes each address to the Ingress whose limits it needs, as ingress-nginx routes', () => {
      const ingresses = byKind(objects, 'Ingress');
      const expect = (host, path, name, service, upstreamPath = path) => {
        const found = route(ingresses, host, path);
        assert.equal(found?.ingress.metadata.name, name, `${host}${path}`);
        assert.equal(found.backend.service.name, service, `${host}${path}`);
        assert.equal(found.upstreamPath, upstreamPath, `${host}${path} as the Service gets it`);
      };
      const site = hostOf(objects, 'netnet-pages');
      for (const page of ['/', '/browse', '/title/604', '/health/ticket', '/remotes.json']) expect(site, page, 'netnet-pages', 'netnet-shell');
      expect(site, '/health/reports', 'netnet-reports', 'netnet-shell');
      for (const file of ['/config.json', '/main.56a660b455.js', '/assets/kids.e47dd891cc.svg', '/favicon.svg']) expect(site, file, 'netnet-files', 'netnet-shell');
      // The instances answer releases' files under /releases/ (shell/server/releaseFiles.ts).
      for (const file of ['/remote-title/1.4.0/mf-manifest.json', '/remote-title/1.4.0-rc.1/server/remoteEntry.js']) {
        expect(hostOf(objects, 'netnet-releases'), file, 'netnet-releases', 'netnet-shell', `/releases${file}`);
      }
      const control = hostOf(objects, 'netnet-control');
      for (const call of ['/v1/environments/production/status', '/console', '/console/', '/console/api/session', '/openapi.yaml']) expect(control, call, 'netnet-control', 'netnet-api');
      assert.equal(route(ingresses, control, '/metrics'), undefined);
      expect(hostOf(objects, 'netnet-catalogue'), '/3/movie/popular', 'netnet-catalogue', 'netnet-catalogue');
    });

    it('names the same hosts in the settings as in the Ingresses', () => {
      assert.equal(new URL(settings.NETNET_CATALOGUE_URL).host, hostOf(objects, 'netnet-catalogue'));
      // The releases' host, or a CDN in front of it: an origin, no path (releases are at its root).
      const releases = new URL(settings.NETNET_DEPLOY_URL);
      assert.equal(`${releases.protocol}//${releases.host}`, settings.NETNET_DEPLOY_URL);
      assert.equal(releases.protocol, 'https:');
      const ingressHosts = byKind(objects, 'Ingress').map((ingress) => ingress.spec.rules[0].host);
      if (ingressHosts.includes(releases.host)) assert.equal(releases.host, hostOf(objects, 'netnet-releases'));
      assert.equal(settings.NETNET_ALLOWED_ORIGINS, `https://${hostOf(objects, 'netnet-pages')}`);
      assert.equal(settings.NETNET_CONSOLE_URL, `https://${hostOf(objects, 'netnet-control')}/console/`);
      for (const name of ['netnet-reports', 'netnet-files']) assert.equal(hostOf(objects, name), hostOf(objects, 'netnet-pages'), name);
    });

    it('lets only the ingress controller reach the pods that serve', () => {
      const policies = byKind(objects, 'NetworkPolicy');
      assert.ok(policies.some((policy) => Object.keys(policy.spec.podSelector).length === 0 && policy.spec.policyTypes.includes('Ingress') && !policy.spec.ingress), 'a default deny');
      const served = workloads(objects).filter((workload) => containersOf(workload).some((container) => container.ports?.length));
      for (const workload of served) {
        const labels = workload.spec.template.metadata.labels;
        const admitting = policies.filter((policy) => policy.spec.ingress?.length && selects(policy.spec.podSelector.matchLabels, labels) && (policy.spec.podSelector.matchExpressions ?? []).every(({ key, operator, values }) => operator === 'In' && values.includes(labels[key])));
        assert.ok(admitting.length > 0, `${workload.metadata.name}: nothing may reach it`);
        for (const policy of admitting) {
          for (const rule of policy.spec.ingress) {
            assert.ok(rule.from?.length && rule.from.every((peer) => peer.namespaceSelector && !peer.podSelector && !peer.ipBlock), `${policy.metadata.name}: admits more than the controller's namespace`);
          }
        }
      }
    });

    if (target === 'production') {
      it('runs a pinned image, the production environment, one guard and two API replicas', () => {
        for (const workload of workloads(objects)) {
          for (const container of containersOf(workload)) {
            assert.match(container.image, /^[a-z0-9.-]+(:\d+)?\/[a-z0-9./-]+:[\w.-]+$/, `${container.name}: ${container.image}`);
            assert.doesNotMatch(container.image, /:latest$/, `${container.name}: a moving tag`);
          }
        }
        assert.equal(new Set(workloads(objects).flatMap((workload) => containersOf(workload).map((container) => container.image))).size, 1, 'one image for every process');
        assert.equal(settings.NETNET_ENV, 'production');
        assert.equal(named(objects, 'Deployment', 'netnet-guard').spec.replicas, 1);
        assert.equal(named(objects, 'Deployment', 'netnet-api').spec.replicas, 2);
      });
    }
  });
}
