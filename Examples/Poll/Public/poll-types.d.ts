// The state and actions of the Poll example, as GET /api/schema describes them.
// Generated from the Swift types; do not edit.

export type Action =
  | {
    addChoice: {
      title: string;
    };
  }
  | {
    editQuestion: {
      text: string;
    };
  }
  | {
    removeChoice: {
      id: string;
    };
  }
  | {
    vote: {
      id: string;
    };
  };

export type State = {
  board: {
    choices: Array<{
      id: string;
      title: string;
      votes: number;
    }>;
    question: string;
  };
  myVote?: string;
};
