// The state and actions of the StoreHost demo (AppFeature), as GET /api/schema describes them.
// Generated from the Swift types; do not edit.

export type Action =
  | {
    counter: "decrementButtonTapped" | "incrementButtonTapped";
  }
  | {
    twoCounters:
      | {
        first: "decrementButtonTapped" | "incrementButtonTapped";
      }
      | {
        second: "decrementButtonTapped" | "incrementButtonTapped";
      };
  }
  | {
    todos:
      | "addButtonTapped"
      | {
        binding:
          | {
            newTodoText: string;
          }
          | {
            filter: "all" | "active" | "completed";
          };
      }
      | "clearCompletedButtonTapped"
      | {
        deleteButtonTapped: {
          id: string;
        };
      }
      | {
        todos: {
          element: {
            action: {
              binding:
                | {
                  title: string;
                }
                | {
                  isComplete: boolean;
                };
            };
            id: string;
          };
        };
      };
  }
  | {
    numberFact: "decrementButtonTapped" | "factButtonTapped" | "incrementButtonTapped";
  }
  | {
    timer: "resetButtonTapped" | "toggleButtonTapped";
  }
  | {
    shared: "decrementButtonTapped" | "incrementButtonTapped";
  }
  | {
    contacts:
      | "addButtonTapped"
      | {
        contactTapped: {
          id: string;
        };
      }
      | {
        deleteButtonTapped: {
          id: string;
        };
      }
      | {
        destination:
          | "dismiss"
          | {
            presented:
              | {
                addContact:
                  | {
                    binding: {
                      name: string;
                    };
                  }
                  | "cancelButtonTapped"
                  | "saveButtonTapped";
              }
              | {
                alert: {
                  confirmDeletion: {
                    id: string;
                  };
                };
              };
          };
      }
      | {
        path:
          | {
            element: {
              action: "backButtonTapped" | "deleteButtonTapped";
              id: number;
            };
          }
          | {
            popFrom: {
              id: number;
            };
          }
          | {
            push: {
              id: number;
              state: {
                contact: {
                  id: string;
                  name: string;
                };
              };
            };
          };
      };
  };

export type State = {
  contacts: {
    contacts: Array<{
      id: string;
      name: string;
    }>;
    destination:
      | {
        addContact: {
          id: string;
          name: string;
        };
      }
      | {
        alert: {
          buttons: Array<{
            action?: {
              confirmDeletion: {
                id: string;
              };
            };
            label: string;
            role?: "cancel" | "destructive";
          }>;
          message?: string;
          title: string;
        };
      }
      | null;
    path: Array<{
      id: number;
      state: {
        contact: {
          id: string;
          name: string;
        };
      };
    }>;
  };
  counter: {
    count: number;
  };
  numberFact: {
    fact?: string;
    isLoading: boolean;
    number: number;
  };
  shared: {
    count: number;
  };
  timer: {
    isRunning: boolean;
    secondsElapsed: number;
  };
  todos: {
    filter: "all" | "active" | "completed";
    newTodoText: string;
    todos: Array<{
      id: string;
      isComplete: boolean;
      title: string;
    }>;
  };
  twoCounters: {
    first: {
      count: number;
    };
    second: {
      count: number;
    };
  };
};
