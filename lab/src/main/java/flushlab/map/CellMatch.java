package flushlab.map;

/** One cell on the target and on the model; {@code difference} null when they agree. */
public record CellMatch(String label, String difference) {}
