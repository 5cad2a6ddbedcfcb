import { createRequire } from 'node:module';
import net from 'node:net';
const require = createRequire(process.cwd() + '/x.js');
const u = require('./node_modules/uWebSockets.js/binaries/uws_linux_x64_115.node');
const arg = process.argv[2];
try {
  console.log('cfg ->', u._cfg(arg));
} catch (e) {
  console.log('cfg threw', e.message);
}
const app = u.App().get('/*', (res) => res.end('x'));
app.listen('127.0.0.1', 0, (ls) => {
  const port = u.us_socket_local_port(ls);
  const s = net.connect(port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
  s.on('data', (d) => {
    console.log(JSON.stringify(d.toString()));
    process.exit(0);
  });
});
