package flushlab.coding;

import com.aayushatharva.brotli4j.Brotli4jLoader;

/** Loads the native brotli library once, and says plainly when this machine cannot. */
final class NativeCodecs {
  private NativeCodecs() {}

  static void ensureBrotli() {
    if (!Brotli4jLoader.isAvailable()) {
      Throwable cause = Brotli4jLoader.getUnavailabilityCause();
      throw new IllegalStateException("br needs brotli4j's native library, which did not load on this machine ("
          + System.getProperty("os.name") + " " + System.getProperty("os.arch") + "): "
          + (cause == null ? "no reason given" : cause.getMessage()), cause);
    }
  }
}
