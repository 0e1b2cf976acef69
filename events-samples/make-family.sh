#!/usr/bin/env bash
# Rebuilds events-samples/family.jsonl through `compass` itself: one parent, two athletes,
# six schools with coaches, 47 interactions over five months (every type, direction and
# sentiment, interest calibration, attachments), three deletions, status changes, documents,
# inbound alerts (Leo turns his off, Pat marks hers read with some arriving after), and a
# coach added while logging.
# Fixed --now and --event-id values make the output byte-identical on every run.
set -euo pipefail
cd "$(dirname "$0")"
C=${COMPASS:-../.build/debug/compass}
export COMPASS_LOG=family.jsonl
rm -rf family.jsonl family.jsonl.attachments family.jsonl.torn
n=0
day=0
# c WHEN ARGS…: one append at 2025-09-01 + WHEN days, 18:00 UTC plus n minutes.
c() {
  local when=$1; shift
  n=$((n + 1))
  local stamp
  stamp=$(date -u -d "2025-09-01T18:00:00Z + $when days + $n minutes" +%Y-%m-%dT%H:%M:%SZ)
  "$C" "$@" --now "$stamp" --event-id "$(printf 'ev-%04d' "$n")" > /dev/null
}

c 0 add-member --user u-pat --name "Pat Lopez" --role parent --family fam-lopez
c 0 add-member --as u-pat --user u-maya --name "Maya Lopez" --role player
c 0 add-member --as u-pat --user u-leo --name "Leo Lopez" --role player
c 1 add-school --as u-pat --name "UCLA" --school s-ucla --status interested
c 1 add-school --as u-maya --name "Arizona State" --school s-asu --status interested
c 1 add-school --as u-maya --name "Stanford" --school s-stanford
c 2 add-school --as u-leo --name "University of Oregon" --school s-oregon --status contacted
c 2 add-school --as u-leo --name "Texas A&M" --school s-tamu
c 3 add-school --as u-pat --name "Gonzaga" --school s-gonzaga --status interested
c 3 add-coach --as u-pat --school s-ucla --first Jane --last Doe --role head --coach c-doe
c 3 add-coach --as u-pat --school s-ucla --first Marcus --last Hill --role recruiting --coach c-hill
c 3 add-coach --as u-maya --school s-asu --first Sofía --last Ramírez --role head --coach c-ramirez
c 4 add-coach --as u-maya --school s-stanford --first Ken --last Ito --role assistant --coach c-ito
c 4 add-coach --as u-leo --school s-oregon --first Dana --last White --role recruiting --coach c-white
c 4 add-coach --as u-leo --school s-tamu --first Bo --last Jackson --role head --coach c-jackson
c 5 add-coach --as u-pat --school s-gonzaga --first Erin --last O\'Neil --role assistant --coach c-oneil

types=(email phone_call text in_person_visit virtual_meeting camp showcase tweet dm)
sentiments=(very_positive positive neutral negative "")
subjects=("Intro email" "Follow-up after the call" "Quick text about film" "Campus visit" "Zoom with the staff"
          "Prospect camp" "Showcase in Phoenix" "Mentioned me on X 🔥" "DM about summer schedule")
athlete_schools=("u-maya s-ucla c-doe" "u-maya s-asu c-ramirez" "u-maya s-stanford c-ito" "u-maya s-gonzaga c-oneil"
                 "u-leo s-oregon c-white" "u-leo s-tamu c-jackson" "u-leo s-ucla c-hill")
interaction() {
  local i=$1 who school coach
  read -r who school coach <<< "${athlete_schools[$((i % 7))]}"
  type=${types[$((i % 9))]}
  dir=$([ $((i % 3)) -eq 0 ] && echo outbound || echo inbound)
  sent=${sentiments[$((i % 5))]}
  at_day=$((6 + i * 3))
  occurred=$(date -u -d "2025-09-01T15:30:00Z + $at_day days" +%Y-%m-%dT%H:%M:%SZ)
  args=(log-interaction --as "$who" --school "$school" --type "$type" --direction "$dir"
        --occurred-at "$occurred" --subject "${subjects[$((i % 9))]} (#$((i + 1)))"
        --content "Talked with the coach about next steps. Visit $((i % 4 + 1)) of the season.")
  [ $((i % 4)) -ne 1 ] && args+=(--coach "$coach")
  [ -n "$sent" ] && args+=(--sentiment "$sent")
  if [ "$dir" = inbound ] && { [ "$sent" = positive ] || [ "$sent" = very_positive ]; }; then
    case $((i % 4)) in
      0) args+=(--interest y,y,y,y,n,y) ;;
      1) args+=(--interest y,n,y,n,n,n) ;;
      2) args+=(--interest y,n,n,n,n,n) ;;
      3) args+=(--interest n,n,n,n,n,n) ;;
    esac
  fi
  c "$at_day" "${args[@]}"
}
interactions() { for i in $(seq "$1" "$2"); do interaction "$i"; done; }

# Five months of interactions, with status changes and documents in time order between them.
interactions 0 4
c 20 upload-document --as u-maya --title "Junior year transcript" --doc-type transcript --file files/questions.txt
interactions 5 11
c 40 change-status --as u-pat --school s-asu --status contacted --notes "Coach Ramírez replied to the intro email"
interactions 12 17
c 60 upload-document --as u-leo --title "Highlight reel — fall 2025" --doc-type highlight_reel
interactions 18 21
c 70 change-status --as u-maya --school s-ucla --status visit_scheduled --notes "Unofficial visit on Nov 14"
interactions 22 29
c 95 change-status --as u-leo --school s-oregon --status not_interested
interactions 30 31
c 100 upload-document --as u-pat --title "NCAA eligibility center registration" --doc-type eligibility
interactions 32 39

# Special cases the pages must handle.
c 130 log-interaction --as u-maya --coach c-ramirez --type phone_call --direction inbound --sentiment very_positive \
  --occurred-at 2026-01-09T01:15:00Z --subject "Offer call!" \
  --content $'Coach said: "We want you, full scholarship."\nCall back by Friday, 5pm.' --interest y,y,y,y,y,y \
  --attach files/camp-schedule.pdf --attach files/stats.png
c 131 log-interaction --as u-leo --school s-tamu --other-coach "Assistant (name unknown)" --type camp --direction outbound \
  --occurred-at 2026-01-10T16:00:00Z --content "Winter ID camp, 40-yard dash 4.6s" --attach files/questions.txt
c 131 change-status --as u-pat --school s-asu --status offer_received --notes "Full scholarship offer — decision by Feb 1, 2026. Family call scheduled for Sunday evening."
c 132 log-interaction --as u-maya --school s-stanford --coach c-ito --type email --direction inbound --sentiment neutral \
  --occurred-at 2026-01-11T09:00:00Z --subject "<b>Questionnaire</b> reminder" --content "Please fill out the form <script>track()</script>by Jan 20."
c 133 log-interaction --as u-leo --school s-oregon --type text --direction inbound \
  --occurred-at 2026-01-11T09:00:00Z --subject "Same minute as his sister's email"
c 134 log-interaction --as u-maya --school s-gonzaga --type dm --direction outbound --event ev-winter-showcase \
  --occurred-at 2026-01-12T20:00:00Z
c 135 log-interaction --as u-maya --school s-ucla --coach c-doe --type virtual_meeting --direction inbound --sentiment positive \
  --occurred-at 2026-01-13T18:00:00Z --subject "Zoom: team culture, academics, and what a typical week looks like for a freshman in season and out of season" \
  --content "$(printf 'Long notes. %.0s' $(seq 1 60))"

# Deletions (by the athlete who logged each).
c 136 delete-interaction i-3 --as u-maya
c 136 delete-interaction i-12 --as u-leo
c 137 delete-interaction i-22 --as u-maya

c 138 change-status --as u-maya --school s-stanford --status interested
c 138 notifications --as u-leo --alerts off
c 138 notifications --as u-pat --mark-read
c 139 log-interaction --as u-maya --school s-ucla --new-coach "Tess Moreno" --coach-role assistant --type email --direction inbound \
  --sentiment positive --occurred-at 2026-01-17T15:00:00Z --subject "Film review follow-up"
c 139 change-status --as u-leo --school s-tamu --status visit_scheduled
c 140 upload-document --as u-maya --title "Athletic résumé" --doc-type resume
echo "wrote $COMPASS_LOG: $n events"
