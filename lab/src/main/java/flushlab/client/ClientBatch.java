package flushlab.client;

import flushlab.coding.ContentCoding;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One batch of a {@link MeteredClient}: its requests shared out among its connections ({@link
 * ClientConnection}), their results gathered, and the batch complete once the last connection is
 * done. Runs on the client's event-loop context.
 */
final class ClientBatch {
  private final MeteredClient client;
  private final ClientOptions options;
  final RequestPlan plan;

  /** The content codings the request accepts, read once per batch. */
  final Set<ContentCoding> accepted;

  private final Promise<BatchResult> promise;
  private final List<StreamResult> results = new ArrayList<>();
  private int issued;
  private int connectionsRunning;

  ClientBatch(MeteredClient client, RequestPlan plan, Promise<BatchResult> promise) {
    this.client = client;
    this.options = client.options();
    this.plan = plan;
    this.accepted = plan.acceptedCodings();
    this.promise = promise;
  }

  void start() {
    int inFlight = Math.min(options.concurrency(), options.requests());
    // HTTP/2 with several streams per connection: one connection per that many streams in flight
    int connections =
        options.multiplexed()
            ? (inFlight + options.streamsPerConnection() - 1) / options.streamsPerConnection()
            : inFlight;
    connectionsRunning = connections;
    for (int i = 0; i < connections; i++) new ClientConnection(client, this).next();
  }

  /** Whether one more request may go (false once all were issued, or the client was aborted). */
  boolean takeRequest() {
    if (client.aborted() || issued >= options.requests()) return false;
    issued++;
    return true;
  }

  void record(StreamResult r) {
    results.add(r);
    client.streamFinished();
  }

  /** A connection has no more requests to send. */
  void connectionDone() {
    if (--connectionsRunning == 0) promise.complete(new BatchResult(results));
  }
}
