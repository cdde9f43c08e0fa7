#!/usr/bin/env node
// Copies the portal's catalogues that the control plane speaks from (its e-mails and the
// subscription page: portal/src/locales/<namespace>/<locale>.json) into control-plane/dist/locales,
// where the built server reads them (control-plane/src/i18n/catalogues.ts). One source for both;
// the copy is what a deployment of dist/ carries. Run in control-plane/, after tsc.
'use strict';
const { cpSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const NAMESPACES = ['email', 'sub-page'];
const from = path.resolve('..', 'portal', 'src', 'locales');
const to = path.resolve('dist', 'locales');
rmSync(to, { recursive: true, force: true });
for (const namespace of NAMESPACES) {
  mkdirSync(path.join(to, namespace), { recursive: true });
  for (const file of readdirSync(path.join(from, namespace))) {
    if (file.endsWith('.json')) {
      cpSync(path.join(from, namespace, file), path.join(to, namespace, file));
    }
  }
}
