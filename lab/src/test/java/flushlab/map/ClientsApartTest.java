package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import flushlab.client.ClientProfile;
import flushlab.map.ClientsApart.AskedAs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replay whose refused cells were all asked as one client, and whose reproduced cells as another,
 * says so: stock nginx over TLS (`map --proxy nginx --config scenarios/proxies/nginx-h2.conf`,
 * 2026-12-04) held 16 KiB, the response head with it, for the lab's own request over HTTP/1.1, and
 * 4 KiB for the compression probe's browser over HTTP/2; its model reproduced the first three cells
 * and not the probe's.
 */
class ClientsApartTest {
  static final AskedAs BARE = new AskedAs(ClientProfile.BARE, false);
  static final AskedAs BROWSER = new AskedAs(ClientProfile.BROWSER, true);

  static CellMatch agrees(String label) {
    return new CellMatch(label, null);
  }

  static CellMatch differs(String label) {
    return new CellMatch(label, "the model held every stream to its end, the target did not");
  }

  @Test
  void refusedCellsAllOfAnotherClientNameBothClientsAndWhatToMapNext() {
    ClientsApart apart =
        ClientsApart.of(
            List.of(agrees("a"), agrees("b"), agrees("c"), differs("probe")),
            List.of(BARE, BARE, BARE, BROWSER));
    assertThat(apart).isNotNull();
    assertThat(apart.sentence())
        .isEqualTo(
            "every cell that differs was asked as browser over HTTP/2, every cell it reproduced as bare over "
                + "HTTP/1.1: the target holds differently for the two, which one relay does not");
    assertThat(apart.tryNext())
        .isEqualTo("map each client on its own: --client browser (which speaks HTTP/2 here)");
  }

  @Test
  void aRefusalWithinOneClientOrAcrossBothSaysNothingOfClients() {
    assertThat(
            ClientsApart.of(
                List.of(agrees("a"), differs("b"), agrees("probe")), List.of(BARE, BARE, BROWSER)))
        .as("a cell of the first client differs too")
        .isNull();
    assertThat(ClientsApart.of(List.of(agrees("a"), differs("b")), List.of(BARE, BARE)))
        .as("one client only")
        .isNull();
    assertThat(ClientsApart.of(List.of(differs("a"), differs("probe")), List.of(BARE, BROWSER)))
        .as("nothing reproduced")
        .isNull();
  }

  /**
   * A match that is no cell's (the silent stream's, which a replay adds after the cells) has no
   * client to pair with: refused plainly, not read past the clients' end.
   */
  @Test
  void aMatchWithoutItsCellsClientIsRefusedPlainly() {
    assertThat(
            catchThrowable(
                () -> ClientsApart.of(List.of(agrees("a"), differs(IdleCut.LABEL)), List.of(BARE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("2 cell matches and 1 clients: one of each per cell");
  }
}
