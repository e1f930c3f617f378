import ComposableArchitecture
import Foundation
import JSONTestSupport
import StoreHostDemo

// The demo's states declared again without `@ObservableState`, with the same stored
// properties (`@BindingState` marks no storage), so that the compiler synthesizes their
// `Codable`: what the coding the macro generates for the demo must match. A child state
// is held as its twin, except in a navigation stack and a destination enum, whose elements
// are checked by their own twins.

struct AppFeatureTwin: SynthesizedTwin, Codable {
  var counter: CounterTwin
  var twoCounters: TwoCountersTwin
  var todos: TodosTwin
  var numberFact: NumberFactTwin
  var timer: TimerTwin
  var shared: SharedCounterTwin
  var contacts: ContactsTwin

  init(_ state: AppFeature.State) {
    counter = CounterTwin(state.counter)
    twoCounters = TwoCountersTwin(state.twoCounters)
    todos = TodosTwin(state.todos)
    numberFact = NumberFactTwin(state.numberFact)
    timer = TimerTwin(state.timer)
    shared = SharedCounterTwin(state.shared)
    contacts = ContactsTwin(state.contacts)
  }
}

struct CounterTwin: SynthesizedTwin, Codable {
  var count = 0

  init(_ state: Counter.State) { count = state.count }
}

struct TwoCountersTwin: SynthesizedTwin, Codable {
  var first: CounterTwin
  var second: CounterTwin

  init(_ state: TwoCounters.State) {
    first = CounterTwin(state.first)
    second = CounterTwin(state.second)
  }
}

struct TodoTwin: SynthesizedTwin, Codable, Identifiable {
  let id: UUID
  var title = ""
  var isComplete = false

  init(_ state: Todo.State) {
    id = state.id
    title = state.title
    isComplete = state.isComplete
  }
}

struct TodosTwin: SynthesizedTwin, Codable {
  var newTodoText = ""
  var filter = Todos.Filter.all
  var todos: IdentifiedArrayOf<TodoTwin> = []

  init(_ state: Todos.State) {
    newTodoText = state.newTodoText
    filter = state.filter
    todos = IdentifiedArray(uniqueElements: state.todos.map(TodoTwin.init))
  }
}

struct NumberFactTwin: SynthesizedTwin, Codable {
  var number = 0
  var fact: String?
  var isLoading = false

  init(_ state: NumberFact.State) {
    number = state.number
    fact = state.fact
    isLoading = state.isLoading
  }
}

struct TimerTwin: SynthesizedTwin, Codable {
  var isRunning = false
  var secondsElapsed = 0

  init(_ state: StoreHostDemo.Timer.State) {
    isRunning = state.isRunning
    secondsElapsed = state.secondsElapsed
  }
}

struct SharedCounterTwin: SynthesizedTwin, Codable {
  @Shared var count: Int

  init(_ state: SharedCounter.State) { _count = state.$count }
}

struct ContactTwin: SynthesizedTwin, Codable, Identifiable {
  let id: UUID
  var name: String

  init(_ contact: Contact) {
    id = contact.id
    name = contact.name
  }
}

struct ContactFormTwin: SynthesizedTwin, Codable {
  let id: UUID
  var name = ""

  init(_ state: ContactForm.State) {
    id = state.id
    name = state.name
  }
}

struct ContactDetailTwin: SynthesizedTwin, Codable {
  var contact: ContactTwin

  init(_ state: ContactDetail.State) { contact = ContactTwin(state.contact) }
}

struct ContactsTwin: SynthesizedTwin, Codable {
  var contacts: IdentifiedArrayOf<ContactTwin> = []
  @Presents var destination: Contacts.Destination.State?
  var path = StackState<ContactDetail.State>()

  init(_ state: Contacts.State) {
    contacts = IdentifiedArray(uniqueElements: state.contacts.map(ContactTwin.init))
    destination = state.destination
    path = state.path
  }
}
