package flushlab.run;

import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.http.Header;
import flushlab.scenario.Cell;
import flushlab.tls.ClientTls;
import java.util.ArrayList;
import java.util.List;

/**
 * The request a cell makes: its stream asked of the emitter at an address, with the model it names.
 */
public final class CellRequest {
  private CellRequest() {}

  /**
   * @param tls how to check the target's TLS (null: plain TCP)
   * @param headers client.headers, resolved (name, value)
   */
  static RequestPlan plan(Cell cell, HostPort at, ClientTls tls, List<Header> headers) {
    return plan(cell, at).withTls(tls).withHeaders(headers);
  }

  public static RequestPlan plan(Cell cell, HostPort at) {
    return RequestPlan.of(cell.stream(), at.host(), at.port(), cell.model())
        .withProfile(cell.profile());
  }

  /**
   * These request headers as a client that accepts no compression sends them: Accept-Encoding:
   * identity in place of the user's.
   */
  static List<Header> identityEncoding(List<Header> headers) {
    List<Header> out = new ArrayList<>();
    for (Header h : headers) if (!h.named("Accept-Encoding")) out.add(h);
    out.add(new Header("Accept-Encoding", "identity"));
    return out;
  }
}
