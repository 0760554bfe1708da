package flushlab;

import java.awt.image.BufferedImage;

/** What a screenshot shows in a rectangle, for telling a drawn chart from a blank area. */
public final class Pixels {
  private Pixels() {}

  /**
   * The standard deviation of the pixels' brightness (0..255) in the rectangle, clipped to the
   * image.
   */
  public static double brightnessSpread(BufferedImage img, int x0, int y0, int w, int h) {
    double sum = 0;
    double sq = 0;
    int n = 0;
    for (int y = Math.max(0, y0); y < Math.min(img.getHeight(), y0 + h); y++) {
      for (int x = Math.max(0, x0); x < Math.min(img.getWidth(), x0 + w); x++) {
        int rgb = img.getRGB(x, y);
        double v = 0.299 * ((rgb >> 16) & 255) + 0.587 * ((rgb >> 8) & 255) + 0.114 * (rgb & 255);
        sum += v;
        sq += v * v;
        n++;
      }
    }
    if (n == 0) return 0;
    double mean = sum / n;
    return Math.sqrt(Math.max(0, sq / n - mean * mean));
  }
}
