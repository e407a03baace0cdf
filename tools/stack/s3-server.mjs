// s3rver as a child process of the stack: `node s3-server.mjs <dir> <host> <port> <bucket>`.
// Browsers may load converted images straight from the bucket (CORS allows GET); anonymous
// clients can read those and nothing else (local-s3.mjs).
import { createLocalS3 } from './local-s3.mjs';

const [directory, address, port, bucket] = process.argv.slice(2);

const server = createLocalS3({ directory, address, port: Number(port), buckets: [bucket] });

const info = await server.run();
console.log(JSON.stringify({ msg: 'S3 listening', url: `http://${info.address}:${info.port}`, bucket, directory }));

const stop = () => server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
