// s3rver as a child process of the stack: `node s3-server.mjs <dir> <host> <port> <bucket>`.
// The bucket allows cross-origin GET so browsers can load CDN URLs straight from it, and s3rver
// serves unsigned GETs, so `http://<host>:<port>/<bucket>/<key>` is publicly readable.
import S3rver from 's3rver';

const [directory, address, port, bucket] = process.argv.slice(2);

const cors = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

const server = new S3rver({
  directory,
  address,
  port: Number(port),
  silent: true,
  configureBuckets: [{ name: bucket, configs: [cors] }],
});

const info = await server.run();
console.log(JSON.stringify({ msg: 'S3 listening', url: `http://${info.address}:${info.port}`, bucket, directory }));

const stop = () => server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
