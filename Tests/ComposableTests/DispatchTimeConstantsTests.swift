import Composable
import Testing

@Test
func sleepingForHalfASecondInNanoseconds() async throws {
  #expect(NSEC_PER_SEC / 2 == 500_000_000)
  #expect(NSEC_PER_MSEC * 1_000 == NSEC_PER_SEC)
  #expect(USEC_PER_SEC * NSEC_PER_USEC == NSEC_PER_SEC)
  try await Task.sleep(nanoseconds: NSEC_PER_SEC / 1_000)
}
