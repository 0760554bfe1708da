package flushlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * --client names a profile on client, map and probe; anything else is refused by the flag, with the
 * profiles.
 */
class ClientFlagTest {
  @Test
  void anUnknownProfileIsRefusedByNameOnEveryCommandThatSendsARequest() throws Exception {
    for (String[] args :
        new String[][] {
          {"client", "--target", "http://127.0.0.1:9/sse", "--client", "safari"},
          {"map", "--shape", "passthrough", "--client", "safari"},
          {"probe", "--gateway", "127.0.0.1:9", "--client", "safari"}
        }) {
      CliTest.Ran r = CliTest.run(args);
      assertThat(r.code()).as(args[0] + ": " + r.err()).isEqualTo(2);
      assertThat(r.err())
          .as(args[0])
          .contains(
              "--client: 'safari' is not one of bare, curl, browser, openai-python, openai-node");
    }
  }
}
