import type { KnowledgeDocument } from './types';

// The knowledge test set: three documents a training team would upload to an
// agent (a safety handbook, a new-starter FAQ, a GDPR primer as plain text)
// and what learners ask about them, each with the heading of the passage a
// person would point to. Written before the retrieval code and never tuned to
// it: a miss is a retrieval that does not understand, unless the expected
// passage was wrong. `null` means the documents have nothing on the question
// and the agent must say so.

export const SAFETY_HANDBOOK: KnowledgeDocument = {
  title: 'Workplace Safety Handbook',
  format: 'markdown',
  text: `# Workplace Safety Handbook

This handbook applies to everyone working in our offices and the Riverside warehouse, including contractors and visitors accompanied by staff.

## Fire evacuation

When the fire alarm sounds, stop work immediately and leave the building by the nearest marked exit. Do not use the lifts. Walk, do not run, and close doors behind you if it is safe to do so.

Go straight to the assembly point in the north car park and report to your floor warden, who checks everyone against the attendance list. Never go back inside to collect belongings. Only re-enter the building when the fire service or the site manager gives the all-clear.

Fire drills take place twice a year without notice.

## Fire extinguishers

Extinguishers hang next to every stairwell and in each kitchen. Use a water extinguisher (red label) only on paper, wood and textiles. Use a CO2 extinguisher (black label) on electrical fires, for example a burning computer or printer. Never use water on electrical equipment.

Remember PASS: pull the pin, aim at the base of the fire, squeeze the handle and sweep from side to side. Only tackle a fire if it is small, you have been trained, and you have a clear escape route behind you.

## Reporting incidents and near misses

Report every accident, injury or near miss within 24 hours using the incident form on the intranet (Safety > Report an incident). A near miss is an event that could have hurt someone but did not, such as a box falling from a shelf next to a colleague.

Your manager reviews each report within three working days and the health and safety committee looks at trends every quarter. Reporting is never about blame: near misses tell us where the next accident would happen.

## First aid

First aid kits are kept in every kitchen and at reception. The names and phone extensions of trained first aiders are posted on the notice board next to the lifts on each floor.

For a serious injury call the emergency number 112 first, then a first aider, then reception so they can guide the ambulance. Record every treatment, even a plaster, in the first aid log kept with the kit.

## Manual handling

Before lifting anything, check the weight and the route. Never lift more than 25 kg on your own: use a trolley or the pallet truck, or ask a colleague to help.

Bend your knees, keep your back straight and hold the load close to your body. Do not twist while carrying; turn with your feet instead. Heavy boxes belong on the lower shelves.

## Display screen equipment

Set up your workstation so the top of the screen is at eye level and about an arm's length away, with your feet flat on the floor or on a footrest. Take a short break from the screen of at least five minutes every hour.

Everyone who uses a screen daily is entitled to a free eye test every two years. Book it through HR; the company pays for glasses needed for screen work up to 150 euros.

## Personal protective equipment

In the warehouse, safety shoes and high-visibility vests are mandatory at all times. Wear hearing protection in areas marked with the blue ear sign, where noise exceeds 85 dB.

Protective equipment is provided free of charge. Ask the stores team for a replacement as soon as anything is damaged or worn out.

## Working alone

Staff who work alone outside normal hours, for example in the warehouse in the evening or at weekends, must check in every two hours with the lone worker app. If you miss a check-in, the security team calls you, and if you do not answer they come to find you.

High-risk tasks such as working at height or with chemicals are never done alone.

## Hazardous substances

Store cleaning products and other chemicals in the locked cupboard in the storeroom, never in kitchens or under sinks. Keep them in their original containers with the label visible.

The safety data sheet for every substance is in the red folder next to the cupboard; read it before first use and wear the gloves and goggles it requires.

## Slips, trips and falls

Keep walkways and stairs clear of boxes and cables. If you see a spill, stay with it or put out a wet floor sign, and call the cleaning team on extension 4400. Report loose carpet, broken steps and poor lighting through the incident form.

Always hold the handrail on stairs and never stand on chairs; use the step ladders provided.
`,
};

export const ONBOARDING_FAQ: KnowledgeDocument = {
  title: 'New Starter FAQ',
  format: 'markdown',
  text: `# New Starter FAQ

Welcome aboard! These are the questions new colleagues ask most in their first weeks.

## When do I get my laptop?

IT prepares your laptop before your first day. Collect it from the IT desk on the second floor at 9:30 on your first morning; bring photo ID. Choose Windows or Mac in the onboarding form at least a week before you start.

## How do I set up my accounts?

You receive a temporary password for your network account by text message on your first morning. Change it when you first sign in. Set up multi-factor authentication with the Authenticator app within your first week, otherwise your account is locked. The IT service desk (extension 2000) can reset passwords.

## Working hours and flexitime

Full-time contracts are 37.5 hours a week. Core hours are 10:00 to 16:00; outside them you choose when to start and finish, between 7:00 and 20:00. Record your time in the HR portal every Friday.

## Remote work

After your probation period you may work from home up to two days a week, agreed with your manager. During probation we ask you to be in the office every day so you get to know the team.

## Probation period

Probation lasts six months. You have review meetings with your manager after three months and at the end of the six months. Either side can end the contract with two weeks' notice during probation.

## Holidays and leave

You get 25 days of paid annual leave plus public holidays, pro rata if you work part-time. Book leave in the HR portal at least two weeks ahead. Up to five unused days can be carried over into the next year but must be taken by 31 March.

## Sick leave

If you are ill, call your manager before 9:30 on the first day; a text or e-mail is not enough. You can self-certify up to seven calendar days. From the eighth day you need a doctor's note, uploaded to the HR portal.

## Pay and expenses

Salaries are paid on the last working day of each month; your payslip appears in the HR portal two days before. Claim expenses in the Expenses app within 30 days, with a photo of each receipt. Mileage with your own car is refunded at 0.30 euros per kilometre.

## Learning budget

Every employee has a learning budget of 1,000 euros a year for courses, conferences, certifications and books. Ask your manager to approve the request before you book, then pay with the company card or claim it as an expense.

## Your onboarding buddy

Every new starter gets a buddy from another team for the first three months. Your buddy shows you around, introduces you to people and is the person to ask the questions you would rather not ask your manager. Meet at least once a week.

## Parking and travel

There are only 40 parking spaces at the office; they are allocated by lottery every quarter, with priority for colleagues with a disability. There is covered bike storage with showers in the basement. The company offers an interest-free loan for an annual public transport season ticket.
`,
};

export const GDPR_PRIMER: KnowledgeDocument = {
  title: 'Data Protection Basics',
  format: 'text',
  text: `Data Protection Basics

What counts as personal data

Personal data is any information about an identified or identifiable living person: a name, an e-mail address, an employee number, an IP address, location data or a photo. Data that has been truly anonymised is no longer personal data, but pseudonymised data still is.

Special category data needs extra protection: health, ethnic origin, religious beliefs, political opinions, trade union membership, genetic and biometric data, and sexual orientation. Only process it when HR or the Data Protection Officer has confirmed a legal ground.

Lawful bases for processing

We may only process personal data on one of six lawful bases: consent, performance of a contract, a legal obligation, vital interests, a public task, or legitimate interests. Consent must be freely given and as easy to withdraw as to give, so it is rarely the right basis between an employer and its staff.

Rights of individuals

People have the right to be informed, to access their data, to have it corrected (rectification), to have it deleted (erasure, also called the right to be forgotten), to restrict processing, to data portability and to object to processing, including direct marketing.

Subject access requests

When a customer, employee or anyone else asks for a copy of the data we hold about them, that is a subject access request, whether or not they use those words. Forward it the same day to privacy@courselens.example. We must answer within one month and cannot charge a fee for a normal request.

Reporting a data breach

A data breach is any loss, theft or unauthorised disclosure of personal data: a lost laptop, a hacked account, or an e-mail with customer details sent to the wrong recipient. Report it to the Data Protection Officer immediately, at the latest within 24 hours of noticing it. The Data Protection Officer decides whether the supervisory authority must be notified, which has to happen within 72 hours.

Retention of records

Keep personal data only as long as it is needed for its purpose. HR files are kept for six years after employment ends; application files of unsuccessful candidates are deleted six months after the recruitment closes; training records are kept for the duration of employment.

International transfers

Personal data may leave the European Economic Area, for example to a supplier or cloud provider in the United States, only under an adequacy decision or standard contractual clauses approved by the legal team. Ask legal before signing with any supplier outside the EEA.

Clean desk and secure e-mail

Lock your screen whenever you leave your desk (Windows key + L) and lock paper files away at the end of the day. Encrypt attachments that contain personal data, double-check recipients before sending, and never copy personal data to a USB stick or a private cloud account.

Fines and penalties

Serious infringements can be fined up to 20 million euros or 4 % of the company's worldwide annual turnover, whichever is higher. Individuals who misuse personal data on purpose can face disciplinary action and criminal prosecution.
`,
};

export const KNOWLEDGE_DOCUMENTS: readonly KnowledgeDocument[] = [
  SAFETY_HANDBOOK,
  ONBOARDING_FAQ,
  GDPR_PRIMER,
];

export type KnowledgeCase = {
  question: string;
  /** The heading of the passage that answers it, or null when nothing does. */
  expected: string | null;
};

export const KNOWLEDGE_CASES: readonly KnowledgeCase[] = [
  // Safety handbook
  { question: 'what do I do when the fire alarm goes off?', expected: 'Fire evacuation' },
  { question: 'Where is the assembly point?', expected: 'Fire evacuation' },
  { question: 'can I take the elevator if there is a fire evacuation', expected: 'Fire evacuation' },
  { question: 'which extinguisher do I use on an electrical fire', expected: 'Fire extinguishers' },
  { question: 'What does PASS stand for?', expected: 'Fire extinguishers' },
  { question: 'how long do I have to report a near miss?', expected: 'Reporting incidents and near misses' },
  { question: 'where are the first aid kits', expected: 'First aid' },
  { question: 'How heavy a box am I allowed to lift on my own?', expected: 'Manual handling' },
  { question: 'do we get free eye tests?', expected: 'Display screen equipment' },
  { question: 'how often should I take a break from my screen', expected: 'Display screen equipment' },
  { question: 'Are safety shoes required in the warehouse?', expected: 'Personal protective equipment' },
  {
    question: 'I work alone in the warehouse in the evenings, how do I check in?',
    expected: 'Working alone',
  },
  { question: 'where should cleaning chemicals be stored', expected: 'Hazardous substances' },
  { question: 'what should i do if I see a spill on the floor', expected: 'Slips, trips and falls' },
  // New starter FAQ
  { question: 'When will I get my laptop?', expected: 'When do I get my laptop?' },
  { question: 'how do I set up multi factor authentication', expected: 'How do I set up my accounts?' },
  { question: 'what are the core hours?', expected: 'Working hours and flexitime' },
  { question: 'Can I work from home?', expected: 'Remote work' },
  { question: 'how long is probation', expected: 'Probation period' },
  { question: 'How many days of annual leave do I get?', expected: 'Holidays and leave' },
  { question: 'can I carry over unused holiday days to next year', expected: 'Holidays and leave' },
  { question: "I'm ill today, who do I need to call?", expected: 'Sick leave' },
  { question: 'when are salaries paid', expected: 'Pay and expenses' },
  { question: 'How do I claim my expenses?', expected: 'Pay and expenses' },
  { question: 'is there a budget for courses and conferences?', expected: 'Learning budget' },
  { question: 'what does my onboarding buddy do', expected: 'Your onboarding buddy' },
  { question: 'Is there parking at the office?', expected: 'Parking and travel' },
  // Data protection primer (plain text)
  { question: 'Is an IP address personal data?', expected: 'What counts as personal data' },
  { question: 'what is special category data', expected: 'What counts as personal data' },
  {
    question: 'what are the lawful bases for processing personal data?',
    expected: 'Lawful bases for processing',
  },
  {
    question: 'a customer asked for a copy of all the data we hold about him, what do I do?',
    expected: 'Subject access requests',
  },
  { question: 'What is the right to be forgotten?', expected: 'Rights of individuals' },
  {
    question: 'I sent an email with customer details to the wrong recipient',
    expected: 'Reporting a data breach',
  },
  { question: 'how long do we keep HR files?', expected: 'Retention of records' },
  {
    question: 'can we send personal data to a cloud provider in the US',
    expected: 'International transfers',
  },
  { question: 'how big can GDPR fines get', expected: 'Fines and penalties' },
  { question: 'Can I copy personal data to a usb stick?', expected: 'Clean desk and secure e-mail' },
  // Nothing in the documents answers these.
  { question: "what's the wifi password?", expected: null },
  { question: 'When is the Christmas party this year?', expected: null },
  { question: 'What is the capital of France?', expected: null },
  { question: 'how do I change my pension contributions', expected: null },
  { question: 'who won the football match last night', expected: null },
  { question: 'Can I bring my dog to work?', expected: null },
];
