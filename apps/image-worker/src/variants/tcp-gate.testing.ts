import net from 'node:net';

/**
 * A TCP forwarder in front of a real server that a test opens and shuts: shut, it drops every
 * connection (the ones already forwarded included), so the service behind looks unreachable.
 */
export class TcpGate {
  private readonly sockets = new Set<net.Socket>();
  private forwarding = true;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  /** A gate to `target` (an http or redis URL), open or shut from the start. */
  static async to(target: string, { open }: { open: boolean }): Promise<TcpGate> {
    const url = new URL(target);
    const gate = new TcpGate(net.createServer(), { host: url.hostname, port: Number(url.port) });
    gate.forwarding = open;
    await new Promise<void>((resolve) => gate.server.listen(0, '127.0.0.1', resolve));
    return gate;
  }

  /** `target` with the gate's address in place of the server's. */
  url(target: string): string {
    const { port } = this.server.address() as net.AddressInfo;
    return Object.assign(new URL(target), { hostname: '127.0.0.1', port: String(port) }).toString().replace(/\/$/, '');
  }

  open(): void {
    this.forwarding = true;
  }

  shut(): void {
    this.forwarding = false;
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.shut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket): void {
    if (!this.forwarding) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.target);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        other.destroy();
      });
      socket.pipe(other);
    }
  }
}
