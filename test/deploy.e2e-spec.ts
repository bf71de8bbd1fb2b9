import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../src/config/app-config.js';

/**
 * The Kubernetes manifests of both environments, rendered the way `kubectl kustomize` renders them
 * (for the features they use: resources, labels, namespace, images and JSON 6902 patches), and every
 * object validated against the Kubernetes schemas of the kubernetes-models package.
 */
type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [k: string]: any;
};

function applyPatch(target: Obj, ops: { op: string; path: string; value?: unknown }[]): void {
  for (const { op, path, value } of ops) {
    const keys = path
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    let node: any = target;
    for (const key of keys) {
      if (node[key] === undefined)
        throw new Error(`patch path ${path} does not exist in ${target.kind}/${target.metadata.name}`);
      node = node[key];
    }
    if (op === 'replace' && node[last] === undefined)
      throw new Error(`replace of a missing ${path} in ${target.kind}/${target.metadata.name}`);
    if (op !== 'replace' && op !== 'add') throw new Error(`unsupported patch op ${op}`);
    node[last] = value;
  }
}

function render(dir: string): Obj[] {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  let objects: Obj[] = [];
  for (const resource of k.resources ?? []) {
    const path = resolve(dir, resource);
    if (statSync(path).isDirectory()) objects.push(...render(path));
    else objects.push(...parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS() as Obj));
  }
  for (const { pairs } of k.labels ?? [])
    for (const o of objects) o.metadata.labels = { ...o.metadata.labels, ...pairs };
  if (k.namespace) for (const o of objects) o.metadata.namespace = k.namespace;
  for (const image of k.images ?? []) {
    for (const o of objects) {
      const pod = o.kind === 'Job' || o.kind === 'Deployment' ? o.spec.template.spec : null;
      for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
        if (c.image.split(':')[0] === image.name) c.image = `${image.newName ?? image.name}:${image.newTag}`;
      }
    }
  }
  for (const p of k.patches ?? []) {
    const targets = objects.filter((o) => o.kind === p.target.kind && o.metadata.name === p.target.name);
    expect([p.target, targets.length]).toEqual([p.target, 1]);
    applyPatch(targets[0], parse(p.patch));
  }
  objects = JSON.parse(JSON.stringify(objects));
  return objects;
}

async function validate(o: Obj): Promise<void> {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [null, o.apiVersion];
  const module = await import(group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`);
  const Model = module[o.kind];
  if (!Model) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

const ENVIRONMENTS = {
  development: { namespace: 'catalog-dev', host: 'catalog-api.dev.pos-platform.example', appEnv: 'development' },
  production: { namespace: 'catalog-prod', host: 'catalog-api.pos-platform.example', appEnv: 'production' },
};

describe.each(Object.entries(ENVIRONMENTS))('deploy/overlays/%s', (env, expected) => {
  const objects = render(resolve('deploy/overlays', env));
  const find = (kind: string): Obj => objects.find((o) => o.kind === kind)!;

  it('validates every object against the Kubernetes schemas', async () => {
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'Job',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    for (const o of objects) await validate(o);
    for (const o of objects) expect(o.metadata.namespace).toBe(expected.namespace);
  });

  it('runs the API non-root on a read-only root file system with probes, resources and a graceful stop', () => {
    const deployment = find('Deployment');
    const pod = deployment.spec.template.spec;
    const [api] = pod.containers;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(api.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(api.livenessProbe.httpGet.path).toBe('/health/live');
    expect(api.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(api.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(api.resources.limits.memory).toEqual(expect.any(String));
    expect(api.lifecycle.preStop.exec.command).toEqual(['sleep', '10']);
    const config = find('ConfigMap').data;
    const preStop = 10;
    // After the preStop hook, the process may take the delay and then the timeout (docs/operations.md#shutdown).
    const stopping = (Number(config.SHUTDOWN_DELAY_MS) + Number(config.SHUTDOWN_TIMEOUT_MS)) / 1000;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStop + stopping);
    expect(api.image).toMatch(/^registry\.pos-platform\.example\/catalog-inventory-read-api:/);
    expect(find('Job').spec.template.spec.containers[0].image).toBe(api.image);
    // Migrations before new code: an init container of the same image; the HPA alone sets the replica count.
    expect(pod.initContainers).toHaveLength(1);
    expect(pod.initContainers[0]).toMatchObject({
      image: api.image,
      command: ['node', 'dist/tools/cli/db-migrate.js'],
    });
    expect(pod.initContainers[0].securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(deployment.spec.replicas).toBeUndefined();
    expect(deployment.spec.selector.matchLabels).toEqual(find('Service').spec.selector);
    expect(deployment.spec.selector.matchLabels).toEqual(find('PodDisruptionBudget').spec.selector.matchLabels);
  });

  it('takes DATABASE_URL, DATABASE_REPLICA_URLS and REDIS_URL from the Secret, and a valid configuration from the ConfigMap', () => {
    const [api] = find('Deployment').spec.template.spec.containers;
    const secretRefs = Object.fromEntries(api.env.map((e: any) => [e.name, e.valueFrom.secretKeyRef]));
    expect(secretRefs.DATABASE_URL).toEqual({ name: 'catalog-api-secrets', key: 'DATABASE_URL' });
    expect(secretRefs.DATABASE_REPLICA_URLS).toMatchObject({ name: 'catalog-api-secrets', optional: true });
    // Production does not start without shared rate limits; development may count per pod.
    expect(secretRefs.REDIS_URL).toMatchObject({
      name: 'catalog-api-secrets',
      key: 'REDIS_URL',
      optional: expected.appEnv !== 'production',
    });
    const data = find('ConfigMap').data as Record<string, string>;
    for (const key of Object.keys(data)) expect(CONFIG_VARIABLES).toContain(key);
    const config = loadConfig({ ...data, DATABASE_URL: 'postgres://u@db/catalog' });
    expect(config).toMatchObject({ appEnv: expected.appEnv, migrateOnStart: false, trustProxy: 1 });
    expect(find('Job').spec.template.spec.containers[0].command).toEqual(['node', 'dist/tools/cli/db-migrate.js']);
    // One Job per release (a Job's template cannot change): named after the image tag.
    const tag = find('Job').spec.template.spec.containers[0].image.split(':')[1];
    expect(find('Job').metadata.name).toBe(`catalog-api-migrate-${tag.replace(/[^a-z0-9]+/g, '-')}`);
  });

  it('keeps the connections of every pod it may run within the connection budget of the database', () => {
    const deployment = find('Deployment');
    const budget = Number(deployment.metadata.annotations?.['catalog-api.pos-platform.example/db-connection-budget']);
    expect(budget).toBeGreaterThan(0);
    const pods = find('HorizontalPodAutoscaler').spec.maxReplicas + deployment.spec.strategy.rollingUpdate.maxSurge;
    const config = loadConfig({ ...find('ConfigMap').data, DATABASE_URL: 'postgres://u@db/catalog' });
    // The migration Job and an admin command hold a pool of 2 each (src/tools/cli); an init container
    // runs before its pod's server, never beside it.
    const needed = pods * config.dbPoolSize + 2 + 2;
    expect({ needed, fits: needed <= budget }).toEqual({ needed, fits: true });
    // docs/operations.md gives the same arithmetic for this environment.
    const docs = readFileSync('docs/operations.md', 'utf8');
    expect(docs).toContain(`(${pods - 1} + 1) × ${config.dbPoolSize} + 4 = ${needed}`);
  });

  it("routes the environment's host to the service, and scales within limits", () => {
    const ingress = find('Ingress');
    expect(ingress.spec.rules[0].host).toBe(expected.host);
    expect(ingress.spec.tls[0].hosts).toEqual([expected.host]);
    expect(ingress.spec.rules[0].http.paths.map((p: any) => p.backend.service.name)).toEqual([
      'catalog-api',
      'catalog-api',
    ]);
    const hpa = find('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'catalog-api' });
    expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    expect(find('PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1 });
    expect(find('PodDisruptionBudget').spec.minAvailable).toBeUndefined();
    // Bodies up to the service's own limit reach it, so that it answers 413 with the envelope.
    const bodyLimit = ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(bodyLimit).toBe('1m');
    expect(Number(find('ConfigMap').data.BODY_LIMIT_BYTES ?? 16384)).toBeLessThan(1024 * 1024);
  });
});

describe('the schema check', () => {
  it('refuses an invalid object', async () => {
    const bad = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { replicas: 'two', template: {} },
    } as unknown as Obj;
    await expect(validate(bad)).rejects.toThrow();
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it('runs the same install, build and start commands as CI and the process tests', () => {
    expect(dockerfile).toMatch(/^RUN npm ci /m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev /m);
    expect(dockerfile).toContain('CMD ["node", "dist/main.js"]');
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.scripts['start:prod']).toBe('node dist/main.js');
    // Every file the build stage copies exists.
    for (const [, from] of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm))
      for (const f of from.split(' ')) expect([f, existsSync(f)]).toEqual([f, true]);
  });

  it('defaults the image to production: a container given only DATABASE_URL accepts only ck_live_ keys', () => {
    const lastStage = dockerfile
      .replace(/\\\n/g, ' ')
      .split(/^FROM /m)
      .at(-1)!;
    const env = Object.fromEntries(
      [...lastStage.matchAll(/^ENV (.+)$/gm)].flatMap(([, pairs]) =>
        pairs
          .trim()
          .split(/\s+/)
          .map((pair) => pair.split('=') as [string, string]),
      ),
    );
    expect(env.APP_ENV).toBe('production');
    expect(loadConfig({ ...env, DATABASE_URL: 'postgres://u@db/catalog' }).appEnv).toBe('production');
  });

  it('is run as development only where that is said explicitly: docker compose', () => {
    const compose = parse(readFileSync('docker-compose.yml', 'utf8'));
    const built = Object.entries(compose.services as Record<string, any>).filter(([, s]) => s.build === '.');
    expect(built.map(([name]) => name).sort()).toEqual(['api', 'migrate']);
    for (const [name, service] of built) expect([name, service.environment.APP_ENV]).toEqual([name, 'development']);
  });

  it('passes dockerfilelint', async () => {
    const { stdout } = await promisify(execFile)(join('node_modules', '.bin', 'dockerfilelint'), [
      '-o',
      'json',
      'Dockerfile',
    ]).catch((e) => e);
    expect(JSON.parse(stdout).totalIssues).toBe(0);
  });
});
