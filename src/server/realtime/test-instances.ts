import { afterAll, beforeAll } from 'vitest';
import { redisBuses } from './test-buses.ts';
import { createTestApp, startSecondInstance, type SecondInstance, type TestApp } from '../testing/test-app.ts';

/**
 * Tests only: two app instances on one database and one Redis (TEST_REDIS_URL), listening, as
 * behind the balancer; made before the suite (call inside a describe skipped without Redis) and
 * closed after it. Read the fields inside tests: they are set once beforeAll has run.
 */
export function twoInstancesOnRedis() {
  const buses = redisBuses();
  const instances = {} as { first: TestApp; second: SecondInstance; firstUrl: string; secondUrl: string };
  beforeAll(async () => {
    instances.first = await createTestApp({ realtime: { pubsub: await buses.create(), heartbeatMs: 250 } });
    instances.second = await startSecondInstance(instances.first, {
      realtime: { pubsub: await buses.create(), heartbeatMs: 250 },
    });
    instances.firstUrl = await instances.first.app.listen({ port: 0, host: '127.0.0.1' });
    instances.secondUrl = await instances.second.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await instances.second?.close();
    await instances.first?.close();
    await buses.cleanUp();
  });
  return instances;
}
