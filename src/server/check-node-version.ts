// main.ts's first import, so that it runs before any dependency loads: on too old a Node,
// Fastify's own imports fail with a cryptic ERR_REQUIRE_ESM instead of this message.
import { exitUnlessSupportedNode } from '../../scripts/node-version.mjs';

exitUnlessSupportedNode();
