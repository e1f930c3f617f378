import Glibc

/// Facts about the machine.
public enum SystemInfo {
  /// Processors this process may run on (at least 1).
  public static var activeProcessorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
