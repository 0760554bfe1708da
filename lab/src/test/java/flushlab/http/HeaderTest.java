package flushlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderTest {
  @Test
  void aFieldIsNamedCaseAsideAndItsValueIsNeverPrinted() {
    Header key = new Header("Authorization", "Bearer sk-secret");
    assertThat(key.named("authorization")).isTrue();
    assertThat(key.named("Accept")).isFalse();
    assertThat(key.line()).isEqualTo("Authorization: Bearer sk-secret");
    // a list of headers in a log line or an exception names the fields only
    assertThat(String.valueOf(List.of(key))).doesNotContain("sk-secret").contains("Authorization");
    assertThatThrownBy(() -> new Header("", "x")).hasMessageContaining("needs a name");
    assertThatThrownBy(() -> new Header("X-Key", null)).hasMessageContaining("X-Key needs a value");
  }
}
