package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.scenario.SettingKeys;

/**
 * The chat stream a client asks for (client and probe share these): tokens, think time, delay
 * between tokens, checked as the scenario settings they are (frames, think, interval).
 */
final class ChatFlags {
  @Parameter(
      names = {"-n", "--tokens"},
      description = "Chat requests: tokens per response (pi_tokens)")
  int tokens;

  @Parameter(
      names = "--think",
      description = "Chat requests: delay before the first token (pi_think_ms)",
      converter = Converters.Duration.class)
  Converters.DurationArg think = Converters.DurationArg.of("0ms");

  @Parameter(
      names = "--delay",
      description =
          "Chat requests: delay between tokens, fractions allowed, e.g. 0.5ms (pi_delay_ms)",
      converter = Converters.Duration.class)
  Converters.DurationArg delay = Converters.DurationArg.of("5ms");

  ChatFlags(int defaultTokens) {
    this.tokens = defaultTokens;
  }

  /** Checks the three against their scenario settings; a bad one names its flag. */
  void check() {
    SettingFlags.intValue("--tokens", SettingKeys.FRAMES, tokens);
    SettingFlags.check("--think", SettingKeys.THINK, think.text());
    SettingFlags.check("--delay", SettingKeys.INTERVAL, delay.text());
  }
}
