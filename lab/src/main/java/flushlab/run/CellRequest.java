package flushlab.run;

import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.scenario.Cell;
import flushlab.tls.ClientTls;
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
  static RequestPlan plan(Cell cell, HostPort at, ClientTls tls, List<String[]> headers) {
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
  static List<String[]> identityEncoding(List<String[]> headers) {
    List<String[]> out = new java.util.ArrayList<>();
    for (String[] h : headers) if (!h[0].equalsIgnoreCase("Accept-Encoding")) out.add(h);
    out.add(new String[] {"Accept-Encoding", "identity"});
    return out;
  }
}
