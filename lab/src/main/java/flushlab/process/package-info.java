/**
 * Child processes that never outlive the lab, and their private folders.
 *
 * <p>{@code ProcessGuard} (children die with the lab), {@code WorkFolders} (private folders, swept
 * when their lab died), {@code Executables}
 */
package flushlab.process;
