package flushlab.cli;

import com.beust.jcommander.ParameterException;
import flushlab.scenario.Key;
import flushlab.scenario.Keys;
import java.util.ListResourceBundle;
import java.util.ResourceBundle;

/**
 * CLI flags that mirror scenario settings ({@code client --requests} is {@code client.requests})
 * take their description and their range from the same registry the scenario validator uses: a
 * flag's {@code descriptionKey} is the setting's path, and its value is checked by the setting.
 */
final class SettingFlags {
  private SettingFlags() {}

  /** Descriptions by setting path ("client.requests"), for JCommander's descriptionKey. */
  static ResourceBundle bundle() {
    Object[][] entries =
        Keys.ALL.stream()
            .filter(k -> k.section().isSetting())
            .map(
                k ->
                    new Object[] {
                      k.path(),
                      capitalized(k.meaning())
                          + " (scenario key "
                          + k.path()
                          + ": "
                          + k.allowed()
                          + ")"
                    })
            .toArray(Object[][]::new);
    return new ListResourceBundle() {
      @Override
      protected Object[][] getContents() {
        return entries;
      }
    };
  }

  /**
   * The flag's value checked as the setting it mirrors; a bad one names the flag and what is
   * allowed.
   */
  static String check(String flag, Key setting, String value) {
    try {
      return setting.check(value);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          flag + ": " + e.getMessage() + "; expected " + setting.allowed());
    }
  }

  static int intValue(String flag, Key setting, int value) {
    return Integer.parseInt(check(flag, setting, Integer.toString(value)));
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
