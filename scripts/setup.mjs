#!/usr/bin/env node
// `npm run setup`: everything a fresh Debian machine needs to run Timbre from a git checkout.
// Plain Node with no dependencies, because it runs before `npm ci` has installed any.
import { runSetup } from './setup/run.mjs';

process.exitCode = runSetup({ checkout: true });
