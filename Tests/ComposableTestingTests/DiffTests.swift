import ComposableArchitecture
import Testing

private struct Outer: Equatable {
  struct Inner: Equatable {
    var a = 1
    var b = 2
  }

  var inner = Inner()
  var name = "Blob"
}

@Test
func diffShowsUnchangedFieldsCollapsed() {
  #expect(
    diff(Outer(), Outer(name: "Blob Jr.")) == """
        Outer(
          inner: Outer.Inner(…),
      -   name: "Blob"
      +   name: "Blob Jr."
        )
      """)
}

@Test
func diffCollapsesRunsOfUnchangedElements() {
  #expect(
    diff([1, 2, 3, 4], [1, 2, 5, 4]) == """
        [
          … (2 unchanged),
      -   [2]: 3,
      +   [2]: 5,
          [3]: 4
        ]
      """)
}

@Test
func diffOfAnEntryUnderAnotherKeyShowsBothEntriesWhole() {
  #expect(
    diff(["a": Counter.State()], ["b": Counter.State()]) == """
        [
      -   "a": Counter.State(count: 0)
      +   "b": Counter.State(count: 0)
        ]
      """)
}

@Test
func diffOfASingleFieldStructIsTheWholeValue() {
  #expect(
    diff(Counter.State(count: 0), Counter.State(count: 1), format: .proportional) == """
      − Counter.State(count: 0)
      + Counter.State(count: 1)
      """)
  #expect(diff(Counter.State(), Counter.State()) == nil)
}

@Test
func dumpShowsASingleElementOnALineOfItsOwn() {
  #expect(customDump([Counter.Action.incrementButtonTapped]) == "[\n  [0]: .incrementButtonTapped\n]")
}

@Test
func dumpQuotesStringsAsTheirContentNeeds() {
  #expect(customDump(#"say "hi""#) == ##"#"say "hi""#"##)
  #expect(customDump("two\nlines") == "\"\"\"\ntwo\nlines\n\"\"\"")
}
