export interface ProblemBody {
  status: number;
  detail: string;
  candidates?: { fullName?: string }[];
}
