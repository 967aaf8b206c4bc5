#!/usr/bin/env bash
# The review step of this repository's GitHub Action (action.yml): check the cards, write the review as
# a pull-request comment (capped under GitHub's limit) and as the full report in the job summary,
# annotate the changed lines, keep the JSON report, and say through $GITHUB_OUTPUT how it went. It never
# fails by itself: the action's last step does, after the comment is posted.
#
# Inputs come through the environment only (INPUT_*, set by action.yml from `with:`), never pasted into
# the script, so no input can become shell code. GITHUB_* are the runner's own variables.
set -uo pipefail

: "${INPUT_CARDS:?the action needs the cards input: card files or directories, separated by spaces}"
read -r -a cards <<<"$INPUT_CARDS"
fail_on="${INPUT_FAIL_ON:-breaking}"
out_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/a2a-docgen"
mkdir -p "$out_dir"
comment="$out_dir/review.md"
report="$out_dir/review.json"
: >"$comment"

base=()
if [ -n "${INPUT_BASE_REF:-}" ]; then
  base=(--base-ref "$INPUT_BASE_REF")
elif [ -n "${GITHUB_BASE_REF:-}" ]; then
  base=(--base-ref "origin/$GITHUB_BASE_REF")  # a pull request: what it will be merged into
else
  base=(--since-default-branch)                 # a push: where the branch left the default branch
fi
# A pull request may add the first cards or remove the last ones (every agent new, or every agent gone);
# a path without cards on either side is still a usage error.
options=("${base[@]}" --allow-empty-base --allow-empty-head)
if [ -n "${INPUT_CONFIG:-}" ]; then
  options+=(--config "$INPUT_CONFIG")
fi
links=()
if [ -n "${INPUT_SITE_URL:-}" ]; then
  links=(--site-url "$INPUT_SITE_URL")
fi

echo "::group::a2a-docgen check"
a2a-docgen check --format github "${cards[@]}"
check_exit=$?
echo "::endgroup::"

a2a-docgen diff "${options[@]}" --format markdown --skip-empty --fail-on "$fail_on" "${links[@]}" \
  -- "${cards[@]}" >"$comment"
exit_code=$?

comment_file=""
if [ "$exit_code" -le 1 ]; then
  # Only a review that ran is posted: after a usage error (exit 2) the comment step keeps the previous
  # review instead of taking an empty file for "nothing to say" and deleting it.
  comment_file="$comment"
  # The full report: the comment's notes of what did not fit link here. A job summary over 1 MiB is
  # dropped whole, so it is capped at 250,000 characters (1 MiB even at four bytes a character); the
  # JSON report in the artifact always has every finding.
  a2a-docgen diff "${options[@]}" --format markdown --comment-limit 250000 "${links[@]}" -- "${cards[@]}" \
    >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
  a2a-docgen diff "${options[@]}" --format json --fail-on never -- "${cards[@]}" >"$report"
  a2a-docgen diff "${options[@]}" --format github --fail-on never -- "${cards[@]}"
fi

{
  echo "exit=$exit_code"
  echo "check-exit=$check_exit"
  echo "comment-file=$comment_file"
  echo "report-file=$report"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit 0
