// Test-mode server for the e2e run (E2E_STATIC=1): serves dist/ and answers the two
// backend calls the skeleton makes with fixed envelopes, so the e2e can run without the backend.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export const FIXTURE_CATEGORIES = [
  {
    categoryId: 1,
    categoryName: '行业',
    dimension: 'industry',
    higherUpId: -1,
    push: false,
    children: [
      { categoryId: 11, categoryName: '餐饮美食', dimension: 'industry', higherUpId: 1, push: false, children: [] },
      { categoryId: 12, categoryName: '教育培训', dimension: 'industry', higherUpId: 1, push: true, children: [] },
    ],
  },
  {
    categoryId: 2,
    categoryName: '用途',
    dimension: 'use',
    higherUpId: -1,
    push: false,
    children: [{ categoryId: 21, categoryName: '节日祝福', dimension: 'use', higherUpId: 2, push: false, children: [] }],
  },
];

const API = {
  '/diyvrbt/system/info': { code: 2000, data: { name: 'reelforge', version: '0.1.0', mode: 'all' }, desc: 'success' },
  '/diyvrbt/category/taskvideo': { code: 2000, data: { dataList: FIXTURE_CATEGORIES }, desc: 'success' },
};

/** Starts the server on a free loopback port; resolves to { server, url }. */
export function startStaticServer(distDir) {
  const root = path.resolve(distDir);
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname.startsWith('/diyvrbt/')) {
      const body = API[pathname] ?? { code: 3000, data: null, desc: `no fixture for ${pathname}` };
      res.writeHead(200, { 'content-type': TYPES['.json'] });
      res.end(JSON.stringify(body));
      return;
    }
    let file = path.join(root, decodeURIComponent(pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) file = path.join(root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}
