package flushlab;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Base of the tests that share one emitter (on an ephemeral loopback port) per test class. */
public abstract class LabTest {
  protected static LabFixture lab;

  @BeforeAll
  static void startLab() throws Exception {
    lab = new LabFixture();
  }

  @AfterAll
  static void stopLab() throws Exception {
    lab.close();
  }
}
