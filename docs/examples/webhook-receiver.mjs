import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET); // whsec_..., as PUT /api/v1/webhook answered it

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    // Checks webhook-signature over webhook-id, webhook-timestamp (at most 5 minutes off) and the raw body.
    const event = webhook.verify(Buffer.concat(chunks).toString('utf8'), req.headers);
    console.log(req.headers['webhook-id'], event.type, JSON.stringify(event.data));
    res.writeHead(204).end(); // any 2xx; deduplicate by webhook-id, as an event may come again
  } catch {
    res.writeHead(400).end();
  }
}).listen(Number(process.env.PORT || 8080), '127.0.0.1');
